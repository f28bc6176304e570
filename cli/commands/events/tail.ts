import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { followEvents } from './follow.js';
import { formatEvent, runtimeApi, withCompany, withFilters, type EventFilterFlags } from './shared.js';
import { runLiveTail } from './tail-live.js';

export interface TailOptions extends EventFilterFlags {
  company?: string;
  /** Seconds each long-poll may wait on the daemon. */
  waitSeconds: number;
  signal?: AbortSignal;
  /** Injected in tests: how to wait before reconnecting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * `svc events tail`: prints history from a cursor, then follows with long-polls. A lost connection
 * or a daemon restart is reported on stderr and retried with backoff; it resumes from the last id
 * it printed, so nothing is shown twice or skipped. Without a cursor it starts from now.
 * On an interactive terminal (without --json) it is a live view (cli/ui, Ink loaded only then);
 * piped (or --json), it prints one JSON object per line.
 */
export async function runTail(opts: TailOptions, ctx: CliContext): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const sleep = opts.sleep ?? defaultSleep;
  const since = opts.sinceId ? opts.since : (opts.since ?? new Date(ctx.now()).toISOString());
  const follow = { ...opts, since, sleep };
  if (ctx.interactive && !ctx.json) return runLiveTail(api, follow, ctx);
  const lines = ctx.json || !ctx.io.stdout.isTTY;
  if (!lines) ctx.err(`following events ${opts.sinceId ? `after ${opts.sinceId}` : `since ${since}`} (Ctrl-C to stop)`);
  await followEvents(api, follow, {
    event: (e) => ctx.out(lines ? JSON.stringify(e) : formatEvent(ctx, e)),
    lost: (message) => ctx.err(`svc: ${message}`),
    reconnected: () => ctx.err('svc: reconnected'),
  });
}

export const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export function tailCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(
    withFilters(new Command('tail').description('print events as they happen (from a cursor, then live)')),
  )
    .option('--since <time>', 'start with the events at or after this ISO time (default: now)')
    .option('--since-id <id>', 'start after this event id (resume where you left off)');
  return action(cmd, makeCtx, (ctx, flags) => {
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    return runTail(
      { ...flags, sinceId: flags.sinceId, waitSeconds: 25, signal: controller.signal } as TailOptions,
      ctx,
    );
  });
}
