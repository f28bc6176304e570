import { readFileSync } from 'node:fs';
import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseJsonFlag, runtimeApi, withCompany } from './shared.js';

export interface PreviewOptions {
  company?: string;
  file: string;
  since: string;
  until?: string;
}

interface PreviewAnswer {
  would_fire: Array<{ event_id: string; tool_calls: Array<{ tool: string; args: unknown }> }>;
  not_fired: Array<{ event_id: string; reason: string }>;
  truncated?: boolean;
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `7d`, `12h`, `30m` before now, or an ISO time as given. */
export function timeFlag(flag: string, value: string, nowMs: number): string {
  const rel = /^(\d{1,6})([mhd])$/.exec(value);
  if (rel) return new Date(nowMs - Number(rel[1]) * UNITS[rel[2]!]!).toISOString();
  if (Number.isNaN(Date.parse(value)))
    throw new UsageError(`${flag}: '${value}' is neither an ISO time nor a duration like 7d, 12h or 30m`);
  return value;
}

/** `svc events preview --file rule.json --since 7d`: what a rule would have fired, with no side effects. */
export async function runPreview(opts: PreviewOptions, ctx: CliContext): Promise<void> {
  let text: string;
  try {
    text = readFileSync(opts.file, 'utf8');
  } catch (err) {
    throw new UsageError(`--file: cannot read ${opts.file}: ${(err as Error).message}`);
  }
  const event = parseJsonFlag('--file', text);
  const body = {
    event,
    since: timeFlag('--since', opts.since, ctx.now()),
    ...(opts.until && { until: timeFlag('--until', opts.until, ctx.now()) }),
  };
  const api = await runtimeApi(ctx, opts.company);
  const res = await api.post<PreviewAnswer>('/api/events/preview', body);
  if (ctx.json) return ctx.printJson(res);
  for (const w of res.would_fire) ctx.out(`would fire  ${w.event_id}  ${w.tool_calls.map((c) => c.tool).join(', ')}`);
  for (const n of res.not_fired) ctx.out(`not fired   ${n.event_id}  (${n.reason})`);
  ctx.out(
    `${res.would_fire.length} would fire, ${res.not_fired.length} not${res.truncated ? ' (cut at 10000 events)' : ''}`,
  );
}

export function previewCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(
    new Command('preview').description('dry-run a rule against the stored events: what it would have fired'),
  )
    .requiredOption('--file <rule.json>', 'a configured event as `svc events create` / POST /api/events takes it')
    .requiredOption('--since <time>', 'from: an ISO time, or 7d, 12h, 30m ago')
    .option('--until <time>', 'to: an ISO time, or a duration ago (default now)');
  return action(cmd, makeCtx, (ctx, flags) => runPreview(flags as PreviewOptions, ctx));
}
