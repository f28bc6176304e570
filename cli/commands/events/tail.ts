import { Command } from 'commander';
import type { EventRow } from '../../../daemon/runtime/services.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { ApiRequestError, CliError } from '../../errors.js';
import { filterQuery, formatEvent, runtimeApi, withCompany, withFilters } from './shared.js';

export interface TailOptions {
  company?: string;
  type?: string;
  agent?: string;
  session?: string;
  quest?: string;
  since?: string;
  sinceId?: string;
  /** Seconds each long-poll may wait on the daemon. */
  waitSeconds: number;
  signal?: AbortSignal;
  /** Injected in tests: how to wait before reconnecting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const MAX_BACKOFF_MS = 15_000;

/**
 * `svc events tail`: prints history from a cursor, then follows with long-polls. A lost connection
 * or a daemon restart is reported on stderr and retried with backoff; it resumes from the last id
 * it printed, so nothing is shown twice or skipped. Without a cursor it starts from now.
 * Piped (or --json), it prints one JSON object per line.
 */
export async function runTail(opts: TailOptions, ctx: CliContext): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const sleep = opts.sleep ?? defaultSleep;
  const lines = ctx.json || !ctx.io.stdout.isTTY;
  const since = opts.sinceId ? opts.since : (opts.since ?? new Date(ctx.now()).toISOString());
  let cursor = opts.sinceId;
  let failures = 0;
  if (!lines) ctx.err(`following events ${cursor ? `after ${cursor}` : `since ${since}`} (Ctrl-C to stop)`);
  while (!opts.signal?.aborted) {
    let page: { events: EventRow[]; next_since_id: string | null; cursor?: string | null };
    try {
      page = await api.get('/api/events', { ...filterQuery(opts), since: cursor ? undefined : since, since_id: cursor, limit: 1000, wait: opts.waitSeconds }, opts.signal);
    } catch (err) {
      if (opts.signal?.aborted) return;
      if (!isTransient(err)) throw err;
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** failures++);
      ctx.err(`svc: connection lost (${(err as Error).message}); reconnecting in ${Math.round(delay / 1000)}s${cursor ? `, resuming after ${cursor}` : ''}`);
      await sleep(delay, opts.signal);
      continue;
    }
    if (failures > 0) ctx.err('svc: reconnected');
    failures = 0;
    for (const e of page.events) {
      ctx.out(lines ? JSON.stringify(e) : formatEvent(ctx, e));
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

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export function tailCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(withFilters(new Command('tail').description('print events as they happen (from a cursor, then live)')))
    .option('--since <time>', 'start with the events at or after this ISO time (default: now)')
    .option('--since-id <id>', 'start after this event id (resume where you left off)');
  return action(cmd, makeCtx, (ctx, flags) => {
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    return runTail({ ...flags, sinceId: flags.sinceId, waitSeconds: 25, signal: controller.signal } as TailOptions, ctx);
  });
}
