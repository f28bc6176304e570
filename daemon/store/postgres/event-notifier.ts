import type pg from 'pg';
import { formatEventId } from '../event-log/event-id.js';
import { EVENTS_CHANNEL } from './event-batch.js';

export type HeadListener = (lastId: string) => void;

/**
 * LISTEN/NOTIFY for the event logs: one dedicated connection per daemon (LISTEN belongs to a
 * session, so it cannot be a pooled connection) hears every commit of every daemon and tells the
 * listeners of that Company the new head id; they then page from their cursor as usual.
 *
 * The daemon LISTENs only while it has a follower (an SSE stream, a long-poll, a tail) on some
 * Company, and for `lingerMs` after the last one left (long-poll clients come straight back). A
 * daemon nobody follows thus pays nothing for the other daemons' commits: without this, every
 * commit woke every daemon (a socket read, a parse, a context switch, and a backend of its own on
 * the server), which with two daemons was a large part of what a second daemon cost per append.
 *
 * Whenever listening starts (the first follower, or a reconnect after the connection dropped,
 * when notifications sent meanwhile are lost) every listener is told its Company's current head
 * once LISTEN is in force. A follower's first page may run before that, so a commit that landed in
 * between was never notified to it; the head it is told makes it page again and find that commit.
 */
export interface EventNotifier {
  /** Registers `listener` (it may be called before this daemon listens: see above). Returns an unsubscribe. */
  subscribe(company: string, listener: HeadListener): () => void;
  /** Resolves once the notifier is in the state its listeners want (listening or not); for tests. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface NotifierOptions {
  url: string;
  /** The pool reads current heads once listening starts. */
  pool: pg.Pool;
  onError?: (err: Error) => void;
  /** First reconnect delay; doubles up to 5 s. */
  retryMs?: number;
  /** How long the daemon keeps listening after its last follower left (default 30 s). */
  lingerMs?: number;
}

export function createEventNotifier(options: NotifierOptions): EventNotifier {
  const listeners = new Map<string, Set<HeadListener>>();
  const firstRetryMs = options.retryMs ?? 100;
  let retryMs = firstRetryMs;
  let connected: Promise<pg.Client> | null = null;
  let current: pg.Client | null = null;
  let active = false; // LISTEN is in force on `current`
  let syncing: Promise<void> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let lingerTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const wanted = () => !closed && (listeners.size > 0 || lingerTimer !== null);

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
      } catch (err) {
        connected = null;
        client.removeAllListeners('end');
        await client.end().catch(() => {});
        throw err;
      }
      current = client;
      return client;
    })());

  const drop = (client: pg.Client | null) => {
    if (client && client === current) {
      current = null;
      connected = null;
      active = false;
      client.removeAllListeners('end');
      void client.end().catch(() => {});
    }
  };

  const lost = (client: pg.Client, err: Error) => {
    if (closed || client !== current) return;
    drop(client);
    options.onError?.(err);
    scheduleRetry();
  };

  const scheduleRetry = () => {
    if (retryTimer || !wanted()) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void sync();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, 5000);
  };

  /** Brings LISTEN in line with `wanted()`, one step at a time (followers may come and go meanwhile). */
  const sync = (): Promise<void> =>
    (syncing ??= (async () => {
      try {
        while (wanted() !== active) {
          if (wanted()) {
            const client = await connect();
            await client.query(`LISTEN ${EVENTS_CHANNEL}`);
            active = true;
            retryMs = firstRetryMs;
            await tellHeads();
          } else {
            active = false;
            await current?.query(`UNLISTEN ${EVENTS_CHANNEL}`);
          }
        }
      } catch (err) {
        if (!closed) {
          drop(current);
          options.onError?.(err as Error);
          scheduleRetry();
        }
      } finally {
        syncing = null;
      }
    })());

  const tellHeads = async () => {
    const companies = [...listeners.keys()];
    if (companies.length === 0) return;
    const { rows } = await options.pool.query<{ company_id: string; last_seq: string }>(
      'SELECT company_id, last_seq FROM svc_event_heads WHERE company_id = ANY($1::text[])',
      [companies],
    );
    for (const r of rows) tell(r.company_id, formatEventId(Number(r.last_seq)));
  };

  const linger = () => {
    lingerTimer = setTimeout(() => {
      lingerTimer = null;
      void sync();
    }, options.lingerMs ?? 30_000);
    lingerTimer.unref?.();
  };

  return {
    subscribe(company, listener) {
      if (closed) throw new Error('the event notifier is closed');
      let set = listeners.get(company);
      if (!set) listeners.set(company, (set = new Set()));
      set.add(listener);
      if (lingerTimer) clearTimeout(lingerTimer), (lingerTimer = null);
      void sync();
      return () => {
        if (!set!.delete(listener)) return;
        if (set!.size === 0 && listeners.get(company) === set) listeners.delete(company);
        if (listeners.size === 0 && !closed) linger();
      };
    },
    async settled() {
      while (syncing) await syncing;
    },
    async close() {
      closed = true;
      for (const timer of [retryTimer, lingerTimer]) if (timer) clearTimeout(timer);
      listeners.clear();
      await syncing;
      const client = await connected?.catch(() => null);
      connected = null;
      current = null;
      if (client) {
        client.removeAllListeners('end');
        await client.end().catch(() => {});
      }
    },
  };
}
