import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { timeFlag } from './preview.js';
import { runtimeApi, withCompany } from './shared.js';

export interface BackfillOptions {
  company?: string;
  from: string;
  to?: string;
}

interface BackfillAnswer {
  fired: Array<{ tick: string; event_id: string }>;
  skipped: Array<{ tick: string; event_id: string; reason: string }>;
}

/** `svc events backfill <cev_id> --from 2d [--to 1h]`: runs a schedule's past ticks in the range now. */
export async function runBackfill(id: string, opts: BackfillOptions, ctx: CliContext): Promise<void> {
  const body = {
    from: timeFlag('--from', opts.from, ctx.now()),
    // The newest a tick can be is now: a range in the future is refused by the daemon.
    to: opts.to ? timeFlag('--to', opts.to, ctx.now()) : new Date(ctx.now()).toISOString(),
  };
  const api = await runtimeApi(ctx, opts.company);
  const res = await api.post<BackfillAnswer>(`/api/events/${encodeURIComponent(id)}/backfill`, body);
  if (ctx.json) return ctx.printJson(res);
  const rows = [
    ...res.fired.map((f) => ({ tick: f.tick, line: `fired    ${f.tick}  ${f.event_id}` })),
    ...res.skipped.map((s) => ({ tick: s.tick, line: `skipped  ${s.tick}  ${s.event_id}  (${s.reason})` })),
  ].sort((a, b) => a.tick.localeCompare(b.tick));
  for (const r of rows) ctx.out(r.line);
  ctx.out(
    rows.length === 0
      ? `no tick of ${id} falls between ${body.from} and ${body.to}`
      : `${res.fired.length} fired, ${res.skipped.length} skipped`,
  );
}

export function backfillCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(
    new Command('backfill').description("run a schedule's past ticks in a range now (content.backfill: true)"),
  )
    .argument('<cev_id>', 'a schedule: configured event')
    .requiredOption('--from <time>', 'the range start: an ISO time, or 7d, 12h, 30m ago (may be before the schedule)')
    .option('--to <time>', 'the range end: an ISO time, or a duration ago (default now)');
  return action(cmd, makeCtx, (ctx, flags, id: string) => runBackfill(id, flags as BackfillOptions, ctx));
}
