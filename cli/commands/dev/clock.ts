import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { operatorApi } from '../../operator.js';
import { formatOffset, parseDuration } from '../../../shared/durations.js';

interface ClockView {
  movable: boolean;
  reason?: string;
  offset_ms: number;
  now: string;
  moved_ms?: number;
  schedule_ticks_fired?: number;
}

export type ClockAction = { advance: string } | { set: string } | { status: true };

/** `svc dev clock advance 2h | set <time> | status`: a local daemon's clock, moved forward only. */
export async function runClock(opts: ClockAction & { data?: string }, ctx: CliContext): Promise<void> {
  // Bad input is a usage error before the daemon is looked for.
  let body: { advance_ms: number } | { set: string } | null = null;
  if ('advance' in opts) {
    const ms = parseDuration(opts.advance);
    if (ms === null)
      throw new UsageError(`cannot read '${opts.advance}' as a length of time: use e.g. 2h, 90m, 1d12h, 1w`);
    body = { advance_ms: ms };
  } else if ('set' in opts) {
    const at = Date.parse(opts.set);
    if (Number.isNaN(at)) throw new UsageError(`cannot read '${opts.set}' as a time: use e.g. 2026-12-01T09:00:00Z`);
    body = { set: new Date(at).toISOString() };
  }
  const api = operatorApi(ctx, opts.data);
  const view = body ? await api.post<ClockView>('/api/dev/clock', body) : await api.get<ClockView>('/api/dev/clock');
  if (ctx.json) return ctx.printJson(view);
  const where = view.offset_ms ? `${formatOffset(view.offset_ms)} ahead of real time` : 'real time';
  ctx.out(`clock: ${view.now} (${where})`);
  if (view.moved_ms !== undefined)
    ctx.out(`moved ${formatOffset(view.moved_ms)}; schedule ticks fired meanwhile: ${view.schedule_ticks_fired ?? 0}`);
  if (!view.movable) ctx.err(`this daemon's clock cannot move: ${view.reason}`);
}

export function devClockCommand(makeCtx: ContextFactory): Command {
  const data = (c: Command) => c.option('--data <dir>', 'data folder of the local daemon');
  const advance = data(
    new Command('advance').description('move the clock ahead, e.g. 2h, 90m, 1d').argument('<duration>'),
  );
  const set = data(new Command('set').description('move the clock ahead to a time (never back)').argument('<time>'));
  const status = data(new Command('status').description("the daemon's time and how far it was moved"));
  return new Command('clock')
    .description("a local daemon's clock: move it forward to see schedules fire and codes expire")
    .addCommand(action(advance, makeCtx, (ctx, flags, d: string) => runClock({ advance: d, data: flags.data }, ctx)))
    .addCommand(action(set, makeCtx, (ctx, flags, t: string) => runClock({ set: t, data: flags.data }, ctx)))
    .addCommand(action(status, makeCtx, (ctx, flags) => runClock({ status: true, data: flags.data }, ctx)));
}
