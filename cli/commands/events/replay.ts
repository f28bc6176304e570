import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { runtimeApi, withCompany } from './shared.js';

export interface ReplayOptions {
  company?: string;
  configured?: string;
  since?: string;
  until?: string;
}

interface ReplayAnswer {
  replayed: Array<{ failure_id: string; event_id: string; ok: boolean; error?: string }>;
  skipped: Array<{ failure_id: string; reason: string; replay_event_id?: string | null }>;
}

/** `svc events replay <failure id>` or `--configured cev_… [--since] [--until]`: runs failed calls again, once each. */
export async function runReplay(failureId: string | undefined, opts: ReplayOptions, ctx: CliContext): Promise<void> {
  if (!failureId === !opts.configured)
    throw new UsageError('give one failure id, or --configured <cev_id> (with --since/--until) for many');
  if (failureId && (opts.since || opts.until)) throw new UsageError('--since and --until go with --configured');
  const body = failureId
    ? { failure_id: failureId }
    : { configured_event_id: opts.configured, since: opts.since, until: opts.until };
  const api = await runtimeApi(ctx, opts.company);
  const res = await api.post<ReplayAnswer>('/api/events/replay', body);
  if (ctx.json) return ctx.printJson(res);
  for (const r of res.replayed)
    ctx.out(`replayed ${r.failure_id} → ${r.event_id} [${r.ok ? 'ok' : 'FAIL'}]${r.error ? `  ${r.error}` : ''}`);
  for (const s of res.skipped)
    ctx.out(`skipped ${s.failure_id} (${s.reason}${s.replay_event_id ? ` → ${s.replay_event_id}` : ''})`);
  if (res.replayed.length + res.skipped.length === 0) ctx.out('nothing to replay');
}

export function replayCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(new Command('replay').description('run failed tool calls again, once each'))
    .argument('[failure id]', 'one failure (from svc events failures)')
    .option('--configured <cev_id>', 'every failure of this configured event not replayed yet')
    .option('--since <time>', 'with --configured: failed at or after (ISO)')
    .option('--until <time>', 'with --configured: failed at or before (ISO)');
  return action(cmd, makeCtx, (ctx, flags, id: string | undefined) => runReplay(id, flags as ReplayOptions, ctx));
}
