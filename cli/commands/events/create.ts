import { Command } from '../../command-spec.js';
import { parsePattern } from '../../../shared/patterns.js';
import type { ConfiguredEvent, ToolCall } from '../../../shared/runtime-records.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { collect, parseJsonFlag, runtimeApi, withCompany } from './shared.js';

export interface CreateOptions {
  company?: string;
  pattern: string;
  toolCalls: string[];
  agent?: string;
  session?: string;
  quest?: string;
  matcher?: string;
  timezone?: string;
  paused?: boolean;
  /** JSON of the retry policy and of a schedule's own policy. */
  retry?: string;
  schedulePolicy?: string;
  /** JSON of the flow-control policies. */
  debounce?: string;
  throttle?: string;
  concurrency?: string;
}

/** Checks a `--tool-call` value: a JSON object `{ "tool": "...", "args": { ... } }`. */
export function parseToolCall(raw: string): ToolCall {
  const value = parseJsonFlag('--tool-call', raw) as Partial<ToolCall> | null;
  if (!value || typeof value !== 'object' || Array.isArray(value) || typeof value.tool !== 'string') {
    throw new UsageError(
      `--tool-call must be an object with a "tool": ${raw}`,
      `e.g. --tool-call '{"tool":"quests.create","args":{"title":"Triage"}}'`,
    );
  }
  return { tool: value.tool, args: (value.args ?? {}) as Record<string, unknown> };
}

/** `svc events create`: a configured event (pattern + tool calls); the daemon says whether it is active, paused or armed. */
export async function runCreate(opts: CreateOptions, ctx: CliContext): Promise<void> {
  const parsed = parsePattern(opts.pattern);
  if (!parsed.ok) throw new UsageError(parsed.message);
  const body = {
    type: opts.pattern,
    tool_calls: opts.toolCalls.map(parseToolCall),
    agent_id: opts.agent,
    session_id: opts.session,
    quest_id: opts.quest,
    enabled: !opts.paused,
    matcher: opts.matcher ? parseJsonFlag('--matcher', opts.matcher) : undefined,
    timezone: opts.timezone,
    retry: opts.retry ? parseJsonFlag('--retry', opts.retry) : undefined,
    schedule_policy: opts.schedulePolicy ? parseJsonFlag('--schedule-policy', opts.schedulePolicy) : undefined,
    debounce: opts.debounce ? parseJsonFlag('--debounce', opts.debounce) : undefined,
    throttle: opts.throttle ? parseJsonFlag('--throttle', opts.throttle) : undefined,
    concurrency: opts.concurrency ? parseJsonFlag('--concurrency', opts.concurrency) : undefined,
  };
  const api = await runtimeApi(ctx, opts.company);
  const { event } = await api.post<{ ok: true; event: ConfiguredEvent & { next_runs?: string[] } }>(
    '/api/events',
    body,
  );
  if (ctx.json) return ctx.printJson(event);
  ctx.out(`created ${event.id}  ${event.type}  (${event.status})`);
  // A schedule: say when it will run, in UTC and in its zone, so a wrong expression shows at once.
  if (event.next_runs && event.next_runs.length > 0) {
    ctx.out(
      `next runs${event.timezone ? ` (${event.timezone})` : ' (UTC)'}${event.status === 'paused' ? ', once enabled' : ''}:`,
    );
    for (const run of event.next_runs)
      ctx.out(`  ${run}${event.timezone ? `  ${localTime(run, event.timezone)}` : ''}`);
  }
  if (event.status === 'armed') ctx.err(armedNote(event));
}

/**
 * Why an armed event will not fire, in the daemon's words: a prefix nothing emits, or a name the
 * prefix's emitter does not produce (then which names do, so a typo is one read away).
 */
export function armedNote(event: Pick<ConfiguredEvent, 'type' | 'armed_reason' | 'names_that_fire'>): string {
  const why = event.armed_reason ?? `nothing on this daemon emits '${event.type.split(':')[0]}:' events`;
  const names = event.names_that_fire?.length ? `; names that fire: ${event.names_that_fire.join(', ')}` : '';
  return `note: armed, so it will not fire: ${why}${names}`;
}

export function createCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(new Command('create').description('create a configured event: a pattern plus tool calls'))
    .requiredOption('--pattern <pattern>', 'the event pattern, <prefix>:<name>, e.g. session:start')
    .option('--tool-call <json>', 'a tool call {"tool":"…","args":{…}} (repeatable)', collect, [])
    .option('--agent <id>', 'only for events about this agent')
    .option('--session <id>', 'only for events about this session')
    .option('--quest <id>', 'only for events about this quest')
    .option(
      '--matcher <json>',
      'a matcher: {"kind":"exact","agent_id":"agt_…"}, {"kind":"predicated","field":"text","regex":"…"} or {"kind":"window","count":3,"within_ms":600000}',
    )
    .option('--timezone <zone>', "IANA zone of a 'schedule:' pattern, e.g. Europe/Berlin (default UTC)")
    .option('--retry <json>', 'retry a failed tool call: {"max_attempts":3,"backoff":{"initial_ms":10000}}')
    .option(
      '--schedule-policy <json>',
      'a schedule\'s own policy: {"catch_up":"skip|latest|all","max_catch_up":N,"overlap":"skip|allow","start_at":"…","end_at":"…"}',
    )
    .option(
      '--debounce <json>',
      'fire once after a quiet: {"key":"{{event.agent_id}}","period_ms":60000,"max_wait_ms":600000}',
    )
    .option(
      '--throttle <json>',
      'at most limit firings per period: {"key":"{{event.agent_id}}","limit":5,"period_ms":3600000}',
    )
    .option('--concurrency <json>', 'at most limit firings with open work: {"limit":1}')
    .option('--paused', 'create it disabled');
  return action(cmd, makeCtx, (ctx, flags) => runCreate({ ...flags, toolCalls: flags.toolCall } as CreateOptions, ctx));
}

/** `2026-01-16 09:00 Europe/Berlin`: a run as the schedule's zone sees it. */
function localTime(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} ${timeZone}`;
}
