import type { EventRow } from '../../../shared/runtime-records.js';
import { ApiRequestError, CliError } from '../../errors.js';
import { filterQuery, type EventFilterFlags, type RuntimeApi } from './shared.js';

export interface FollowOptions extends EventFilterFlags {
  /** Seconds each long-poll may wait on the daemon. */
  waitSeconds: number;
  signal?: AbortSignal;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Ask without waiting on the first poll and after a failure, so "connected" shows at once. */
  quickConfirm?: boolean;
}

/** What the follower tells its output (plain lines or the live view). */
export interface FollowHooks {
  event(e: EventRow): void;
  /** The connection was lost; `message` says why, when the retry is and from where it resumes. */
  lost(message: string, delayMs: number): void;
  reconnected(): void;
  /** A poll answered (used by the live view to show "connected"). */
  polled?(): void;
}

const MAX_BACKOFF_MS = 15_000;

/**
 * Long-polls GET /api/events from a cursor until aborted. A lost connection or a restarting
 * daemon is reported through `hooks.lost` and retried with backoff; it resumes from the last id it
 * handed out, so nothing is shown twice or skipped. A final "no" (403, 404…) is thrown.
 */
export async function followEvents(api: RuntimeApi, opts: FollowOptions, hooks: FollowHooks): Promise<void> {
  let cursor = opts.sinceId;
  let failures = 0;
  let confirmed = false;
  while (!opts.signal?.aborted) {
    let page: { events: EventRow[]; next_since_id: string | null; cursor?: string | null };
    try {
      const wait = opts.quickConfirm && !confirmed ? 0 : opts.waitSeconds;
      page = await api.get(
        '/api/events',
        { ...filterQuery(opts), since: cursor ? undefined : opts.since, since_id: cursor, limit: 1000, wait },
        opts.signal,
      );
    } catch (err) {
      if (opts.signal?.aborted) return;
      if (!isTransient(err)) throw err;
      confirmed = false;
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** failures++);
      hooks.lost(
        `connection lost (${(err as Error).message}); reconnecting in ${Math.round(delay / 1000)}s${cursor ? `, resuming after ${cursor}` : ''}`,
        delay,
      );
      await opts.sleep(delay, opts.signal);
      continue;
    }
    if (failures > 0) hooks.reconnected();
    failures = 0;
    confirmed = true;
    hooks.polled?.();
    for (const e of page.events) {
      hooks.event(e);
      cursor = e.id;
    }
    // An empty answer still moves the cursor to the log's end, so `since` is not re-scanned.
    if (page.events.length === 0 && page.cursor) cursor = page.cursor;
  }
}

/** Network trouble, a restarting daemon or rate limiting are worth waiting out; any other "no" is final. */
function isTransient(err: unknown): boolean {
  if (err instanceof ApiRequestError) return err.status >= 500 || err.status === 429;
  if (err instanceof CliError) return /cannot reach/.test(err.message);
  return (err as NodeJS.ErrnoException)?.code !== undefined || (err as Error)?.name === 'SocketError';
}
