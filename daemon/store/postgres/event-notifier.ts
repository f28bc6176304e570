import type pg from 'pg';
import { formatEventId } from '../../events/log/event-id.js';
import { EVENTS_CHANNEL } from './event-batch.js';

export type HeadListener = (lastId: string) => void;

/**
 * LISTEN/NOTIFY for the event logs: one dedicated connection per daemon (LISTEN belongs to a
 * session, so it cannot be a pooled connection) hears every commit of every daemon and tells the
 * listeners of that Company the new head id; they then page from their cursor as usual. When the
 * connection drops it reconnects, and since notifications sent meanwhile are lost, every listener
 * is then told its Company's current head so no follower stalls on a missed one.
 */
export interface EventNotifier {
  /** Resolves once the daemon is listening, so a follower that reads its cursor afterwards misses nothing. */
  subscribe(company: string, listener: HeadListener): Promise<() => void>;
  close(): Promise<void>;
}

export interface NotifierOptions {
  url: string;
  /** The pool reads current heads after a reconnect. */
  pool: pg.Pool;
  onError?: (err: Error) => void;
  /** First reconnect delay; doubles up to 5 s. */
  retryMs?: number;
}

export function createEventNotifier(options: NotifierOptions): EventNotifier {
  const listeners = new Map<string, Set<HeadListener>>();
  let connected: Promise<pg.Client> | null = null;
  let current: pg.Client | null = null;
  let closed = false;
  let retryMs = options.retryMs ?? 100;
  let retryTimer: NodeJS.Timeout | null = null;

  const tell = (company: string, lastId: string) => {
    for (const listener of listeners.get(company) ?? []) {
      try {
        listener(lastId);
      } catch (err) {
        options.onError?.(err as Error);
      }
    }
  };

  const connect = (): Promise<pg.Client> =>
    (connected ??= (async () => {
      const { Client } = (await import('pg')).default; // loaded by openDatabase already
      const client = new Client({ connectionString: options.url, application_name: 'svc-listen' });
      client.on('notification', (n) => {
        if (n.channel !== EVENTS_CHANNEL || !n.payload) return;
        let heard: { company?: unknown; last_id?: unknown };
        try {
          heard = JSON.parse(n.payload);
        } catch {
          return; // anyone with access may NOTIFY this channel: a foreign payload is ignored
        }
        if (typeof heard?.company === 'string' && typeof heard.last_id === 'string') tell(heard.company, heard.last_id);
      });
      client.on('error', (err) => lost(client, err));
      client.on('end', () => lost(client, new Error('the listening connection ended')));
      try {
        await client.connect();
        await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      } catch (err) {
        connected = null;
        await client.end().catch(() => {});
        throw err;
      }
      retryMs = options.retryMs ?? 100;
      current = client;
      return client;
    })());

  const lost = (client: pg.Client, err: Error) => {
    if (closed || client !== current) return;
    current = null;
    connected = null;
    client.removeAllListeners('end');
    void client.end().catch(() => {});
    options.onError?.(err);
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer || listeners.size === 0) return;
    retryTimer = setTimeout(async () => {
      retryTimer = null;
      try {
        await connect();
        await catchUp();
      } catch (err) {
        options.onError?.(err as Error);
        retryMs = Math.min(retryMs * 2, 5000);
        scheduleReconnect();
      }
    }, retryMs);
  };

  const catchUp = async () => {
    const companies = [...listeners.keys()];
    const { rows } = await options.pool.query<{ company_id: string; last_seq: string }>(
      'SELECT company_id, last_seq FROM svc_event_heads WHERE company_id = ANY($1::text[])',
      [companies],
    );
    for (const r of rows) tell(r.company_id, formatEventId(Number(r.last_seq)));
  };

  return {
    async subscribe(company, listener) {
      if (closed) throw new Error('the event notifier is closed');
      let set = listeners.get(company);
      if (!set) listeners.set(company, (set = new Set()));
      set.add(listener);
      try {
        await connect();
      } catch (err) {
        set.delete(listener);
        throw err;
      }
      return () => {
        set!.delete(listener);
        if (set!.size === 0 && listeners.get(company) === set) listeners.delete(company);
      };
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      listeners.clear();
      const client = await connected?.catch(() => null);
      connected = null;
      if (client) {
        client.removeAllListeners('end');
        await client.end().catch(() => {});
      }
    },
  };
}
