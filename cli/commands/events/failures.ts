import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import type { Failure } from '../../../shared/firings.js';
import { runtimeApi, withCompany } from './shared.js';

export interface FailuresOptions {
  company?: string;
  configured?: string;
  since?: string;
  until?: string;
}

/** `svc events failures`: tool calls that failed for good, ready to replay. */
export async function runFailures(opts: FailuresOptions, ctx: CliContext): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const query: Record<string, string> = {};
  if (opts.configured) query.configured_event_id = opts.configured;
  if (opts.since) query.since = opts.since;
  if (opts.until) query.until = opts.until;
  const { failures } = await api.get<{ failures: Failure[] }>('/api/events/failures', query);
  if (ctx.json) return ctx.printJson(failures);
  if (failures.length === 0) return ctx.out('no failures');
  for (const f of failures)
    ctx.out(
      `${f.id}  ${f.tool}  ×${f.attempts}  ${f.failed_at}  ${f.replay_event_id ? `replayed → ${f.replay_event_id}` : f.error}`,
    );
}

export function failuresCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(new Command('failures').description('tool calls that failed for good, to replay'))
    .option('--configured <cev_id>', 'only the failures of this configured event')
    .option('--since <time>', 'failed at or after (ISO)')
    .option('--until <time>', 'failed at or before (ISO)');
  return action(cmd, makeCtx, (ctx, flags) => runFailures(flags as FailuresOptions, ctx));
}
