import { Command } from '../../command-spec.js';
import type { Emitted } from '../../../shared/runtime-records.js';
import { parsePattern } from '../../../shared/patterns.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { formatEvent, parseJsonFlag, runtimeApi, withCompany } from './shared.js';

export interface TriggerOptions {
  company?: string;
  content?: string;
  agent?: string;
  session?: string;
  quest?: string;
  idempotencyKey?: string;
}

/**
 * `svc events trigger <pattern | configured id>`: emits an occurrence of a pattern (every matching
 * configured event fires), or fires one configured event now when given its id (cev_…).
 */
export async function runTrigger(target: string, opts: TriggerOptions, ctx: CliContext): Promise<void> {
  const content = opts.content === undefined ? undefined : parseJsonFlag('--content', opts.content);
  let body: Record<string, unknown>;
  if (target.startsWith('cev_')) {
    body = { configured_event_id: target, content };
  } else {
    const parsed = parsePattern(target);
    if (!parsed.ok) throw new UsageError(parsed.message);
    body = { type: target, agent_id: opts.agent, session_id: opts.session, quest_id: opts.quest, content };
  }
  const key = opts.idempotencyKey;
  // The daemon's rule (CONTRACT §8), checked here first so a typo is a usage error, not a round trip.
  if (key !== undefined && !/^[\x21-\x7e]{1,200}$/.test(key))
    throw new UsageError('--idempotency-key: 1-200 printable characters (letters, digits, punctuation), no spaces.');
  const api = await runtimeApi(ctx, opts.company);
  // A repeat with the same key within 24 h is answered with the first answer and fires nothing.
  const headers = key === undefined ? undefined : { 'idempotency-key': key };
  const res = await api.post<{ ok: true } & Emitted>('/api/events/trigger', body, headers);
  if (ctx.json) return ctx.printJson(res);
  ctx.out(formatEvent(ctx, res.event));
  if (res.fired.length === 0) ctx.out('  nothing fired');
  for (const f of res.fired)
    ctx.out(`  ${f.ok ? 'ok  ' : 'FAIL'} ${f.tool}  (${f.configured_event_id})${f.ok ? '' : `  ${f.error}`}`);
  // Held back by flow control (or paused, out of scope…): say which rule and why, as trace does.
  for (const n of res.not_fired ?? []) ctx.out(`  not fired (${n.reason})  (${n.configured_event_id})`);
}

export function triggerCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(
    new Command('trigger').description('emit an event now (or fire one configured event by id) and show what fired'),
  )
    .argument('<pattern or id>', 'a pattern like loop:detected, or a configured event id (cev_…)')
    .option('--content <json>', 'the event content, as JSON')
    .option('--agent <id>', 'the agent the event is about')
    .option('--session <id>', 'the session the event is about')
    .option('--quest <id>', 'the quest the event is about')
    .option(
      '--idempotency-key <key>',
      'send it as Idempotency-Key: a repeat within 24 h prints the first answer and fires nothing',
    );
  return action(cmd, makeCtx, (ctx, flags, target: string) => runTrigger(target, flags, ctx));
}
