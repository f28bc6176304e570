import { Command } from '../../command-spec.js';
import type { ConfiguredEvent, EventRow } from '../../../shared/runtime-records.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { formatScheduledRows, type ScheduledRow } from '../../format/scheduled-events.js';
import { filterQuery, formatEvent, runtimeApi, withCompany, withFilters, type EventFilterFlags } from './shared.js';

export interface ListOptions extends EventFilterFlags {
  company?: string;
  limit?: number;
  /** The newest N (GET /api/events?last=N), still printed oldest first unless `reverse`. */
  last?: number;
  /** Newest first. */
  reverse?: boolean;
  configured?: boolean;
  scheduled?: boolean;
}

/** `svc events list`: one page of the log (oldest first; --last N the newest N; --reverse newest first), or the configured events. */
export async function runList(opts: ListOptions, ctx: CliContext): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const query = filterQuery(opts);
  if (opts.scheduled) {
    const { events } = await api.get<{ events: ScheduledRow[] }>('/api/events', {
      ...query,
      configured: true,
      scheduled: true,
    });
    if (ctx.json) return ctx.printList(events);
    for (const line of formatScheduledRows(events, ctx.now())) ctx.out(line);
    return;
  }
  if (opts.configured) {
    const { events } = await api.get<{ events: ConfiguredEvent[] }>('/api/events', { ...query, configured: true });
    if (ctx.json) return ctx.printList(events);
    if (events.length === 0) ctx.err('no configured events');
    for (const e of events) {
      const scope = [
        e.agent_id && `agent=${e.agent_id}`,
        e.session_id && `session=${e.session_id}`,
        e.quest_id && `quest=${e.quest_id}`,
      ]
        .filter(Boolean)
        .join(' ');
      const calls = e.tool_calls.map((c) => c.tool).join(', ') || '(no tool calls)';
      ctx.out([e.id, e.status.padEnd(6), e.type, scope, calls].filter(Boolean).join('  '));
    }
    return;
  }
  if (opts.last !== undefined && (opts.sinceId !== undefined || opts.limit !== undefined))
    throw new UsageError('--last cannot be combined with --since-id or --limit', 'the newest N are one page: --last N');
  const page = await api.get<{ events: EventRow[]; next_since_id: string | null }>('/api/events', {
    ...query,
    since: opts.since,
    since_id: opts.sinceId,
    limit: opts.limit,
    last: opts.last,
  });
  const events = opts.reverse ? [...page.events].reverse() : page.events;
  // The same shape as every list (a bare array); the cursor of the next page goes to stderr.
  if (ctx.json) ctx.printList(events);
  else {
    if (events.length === 0) ctx.err('no events');
    for (const e of events) ctx.out(formatEvent(ctx, e));
  }
  if (page.next_since_id) ctx.err(`more: svc events list --since-id ${page.next_since_id}`);
}

export function listCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(
    withFilters(new Command('list').description('list events, oldest first (or configured events with --configured)')),
  )
    .option('--since <time>', 'only events at or after this ISO time')
    .option('--since-id <id>', 'only events after this id (the next_since_id of a previous page)')
    .option('--limit <n>', 'at most this many (1-1000, default 100)')
    .option('--last <n>', 'the newest n events (1-1000), oldest of them first')
    .option('--reverse', 'newest first')
    .option('--configured', 'list the configured events (patterns and tool calls) instead')
    .option('--scheduled', "list the 'schedule:' configured events: status (active/paused/armed), zone and next run");
  return action(cmd, makeCtx, (ctx, flags) => {
    const limit = flags.limit === undefined ? undefined : Number(flags.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000))
      throw new UsageError('--limit must be a whole number from 1 to 1000');
    const last = flags.last === undefined ? undefined : Number(flags.last);
    if (last !== undefined && (!Number.isInteger(last) || last < 1 || last > 1000))
      throw new UsageError('--last must be a whole number from 1 to 1000');
    return runList(
      {
        ...flags,
        limit,
        last,
        reverse: Boolean(flags.reverse),
        sinceId: flags.sinceId,
        configured: Boolean(flags.configured),
        scheduled: Boolean(flags.scheduled),
      } as ListOptions,
      ctx,
    );
  });
}
