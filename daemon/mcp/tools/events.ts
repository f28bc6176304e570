import { presentConfigured } from '../../company/index.js';
import { ErrorCode } from '../../../shared/errors.js';
import { missing, unavailable } from '../../domain-error.js';
import { requireFields } from './require.js';
import { defineTool } from './types.js';

import { input, output, PREFIXES } from './events-schema.js';
import { runFlowAction } from './events-flow.js';

/**
 * Written for a model that has never seen svc's docs: what each action needs and answers, and
 * examples that work as they are (tests/daemon/mcp/events-description.test.ts runs every one).
 */
export const EVENTS_EXAMPLES = [
  '{"action":"create","type":"session:stopped","tool_calls":[{"tool":"quests.create","args":{"title":"Review the stopped session"}}]}',
  '{"action":"trigger","type":"session:stopped","content":{"reason":"manual"}}',
  '{"action":"create","type":"schedule:0 9 * * 1-5","timezone":"Europe/Paris","tool_calls":[{"tool":"quests.create","args":{"title":"Morning review"}}]}',
  '{"action":"list","configured":true}',
  '{"action":"list","limit":20}',
  '{"action":"create","type":"guardrail:violation","throttle":{"key":"{{event.agent_id}}","limit":5,"period_ms":3600000},"tool_calls":[{"tool":"quests.create","args":{"title":"Review the violation"}}]}',
  '{"action":"failures"}',
  '{"action":"preview","since":"2026-01-01T00:00:00Z","rule":{"type":"session:stopped","concurrency":{"limit":1},"tool_calls":[{"tool":"quests.create","args":{"title":"Follow up"}}]}}',
  '{"action":"get_budget"}',
];

/** The events bus, one action at a time: the same services as the /api/events routes, so the same answers. */
export const eventsTool = defineTool({
  name: 'events',
  title: 'Events',
  description: [
    'React to what happens in this Company. An event has a type <prefix>:<name>; the platform emits them (session:start, session:stopped, schedule ticks, …) and you can emit one with trigger.',
    'A configured event is a pattern plus tool_calls: each time an event of that type is emitted, its tool calls run (create or update a quest, message an agent, update or compact a session).',
    'Actions: create {type, tool_calls?, agent_id?, session_id?, quest_id?, enabled?, timezone?, matcher?, retry?, schedule_policy?, debounce?, throttle?, concurrency?} → {ok, event}.',
    'update {id, tool_calls?, matcher?, enabled?, retry?, schedule_policy?, debounce?, throttle?, concurrency?} → {ok, event}: changes a configured event as PATCH /api/events/{id} does; only the fields given change, null removes a policy (retry, schedule_policy, debounce, throttle, concurrency), e.g. {"action":"update","id":"cev_…","throttle":{"limit":10,"period_ms":3600000},"debounce":null}.',
    'list {event_type?, agent_id?, session_id?, quest_id?, since?, since_id?, limit?} → {events, next_since_id, cursor}, oldest first; list {configured: true} → {events: configured events}.',
    'enable / disable / delete {id} → {ok, event} / {ok, id, deleted}.',
    'trigger {type, content?, agent_id?, session_id?, quest_id?} emits an event and runs every matching configured event; trigger {id, content?} fires one configured event now → {ok, event, fired: [{configured_event_id, tool, ok, result | error}]}.',
    'trace {event_id} → {event, fired, children}: what that event caused, recursively; with retry, each attempt of a call is one entry of fired (attempt, error, next_attempt_at, and outcome on the last).',
    'failures {configured_event_id?, since?, until?} → {failures: [{id, event_id, configured_event_id, tool, error, attempts, failed_at, replayed_at, replay_event_id}]}: tool calls that failed for good.',
    'replay {failure_id} or {configured_event_id, since?, until?} → {ok, replayed: [{failure_id, event_id, ok, error?}], skipped: [{failure_id, reason}]}: runs failed calls again, each failure once ever.',
    'preview {rule, since, until?} → {ok, would_fire: [{event_id, tool_calls}], not_fired: [{event_id, reason}]}: what a rule (as create takes it) would have fired over the stored events; nothing is stored or run.',
    'backfill {id, from, to} → {ok, fired: [{tick, event_id}], skipped}: runs the past ticks of a schedule: configured event in that range now.',
    'get_budget → {budget}; set_budget {max_firings, max_tool_calls, within_ms} → {ok, budget}: caps on what one causal chain may fire; crossing it stops the chain (not_fired reason budget) and asks the owner.',
    `Prefixes: ${PREFIXES}. A dotted name (agent.spawned) is refused; another prefix is stored with status armed and never fires.`,
    'Names matter too: under a known prefix, a name its emitter never produces (session:error) is also stored armed and never fires; the answer then has armed_reason and names_that_fire, the names to use instead. Check status is active after create.',
    `Examples (arguments): ${EVENTS_EXAMPLES.join(' ; ')}`,
  ].join('\n'),
  input,
  output,
  // One tool for many actions, so the hints must hold for the worst of them: delete removes, trigger,
  // replay and backfill run whatever the configured events say. events_read is the read-only half.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: async (args, ctx) => {
    const events = (await ctx.services()).events;
    switch (args.action) {
      case 'create': {
        const a = requireFields(args, 'create', 'type');
        const event = await events.create({
          type: a.type,
          tool_calls: a.tool_calls ?? [],
          agent_id: a.agent_id ?? null,
          session_id: a.session_id ?? null,
          quest_id: a.quest_id ?? null,
          enabled: a.enabled,
          timezone: a.timezone ?? null,
          matcher: (a.matcher as never) ?? null,
          retry: a.retry as never,
          schedule_policy: a.schedule_policy as never,
          ...(a.debounce != null && { debounce: a.debounce as never }),
          ...(a.throttle != null && { throttle: a.throttle as never }),
          ...(a.concurrency != null && { concurrency: a.concurrency as never }),
        });
        return { ok: true, event: presentConfigured(event, ctx.now()) };
      }
      case 'update': {
        const a = requireFields(args, 'update', 'id');
        if (!events.update)
          throw unavailable('This runtime cannot change a configured event.', ErrorCode.featureUnavailable);
        // Only the fields given, as a PATCH body: the service checks them as it checks PATCH's.
        const change = dropUndefined({
          tool_calls: a.tool_calls,
          matcher: a.matcher,
          enabled: a.enabled,
          retry: a.retry,
          schedule_policy: a.schedule_policy,
          debounce: a.debounce,
          throttle: a.throttle,
          concurrency: a.concurrency,
        });
        return { ok: true, event: presentConfigured(await events.update(a.id, change as never), ctx.now()) };
      }
      case 'list': {
        const filter = {
          event_type: args.event_type ?? args.type,
          agent_id: args.agent_id,
          session_id: args.session_id,
          quest_id: args.quest_id,
        };
        if (args.configured)
          return {
            events: (await events.listConfigured(dropUndefined(filter))).map((c) => presentConfigured(c, ctx.now())),
          };
        // As GET /api/events: the cursor to follow from, taken before the query so nothing is missed.
        const lastSeen = (await events.lastId?.()) ?? null;
        const page = await events.list(
          dropUndefined({ ...filter, since: args.since, since_id: args.since_id, limit: args.limit }),
        );
        return { ...page, cursor: page.events.at(-1)?.id ?? args.since_id ?? lastSeen };
      }
      case 'enable':
      case 'disable': {
        const a = requireFields(args, args.action, 'id');
        return {
          ok: true,
          event: presentConfigured(await events.setEnabled(a.id, args.action === 'enable'), ctx.now()),
        };
      }
      case 'delete': {
        const a = requireFields(args, 'delete', 'id');
        await events.delete(a.id);
        return { ok: true, id: a.id, deleted: true };
      }
      case 'trigger': {
        const trigger = async () => {
          if (args.id)
            return { ok: true, ...(await events.fire(args.id, { content: args.content, source: 'manual' })) };
          const a = requireFields(args, 'trigger', 'type');
          return {
            ok: true,
            ...(await events.emit({
              type: a.type,
              agent_id: a.agent_id,
              session_id: a.session_id,
              quest_id: a.quest_id,
              content: a.content,
              source: 'manual',
            })),
          };
        };
        const { idempotency_key: key, ...request } = args;
        if (!key || !events.once) return trigger();
        const { answer, replayed } = await events.once('mcp_trigger', key, request, trigger);
        return replayed ? { ...answer, replayed: true } : answer;
      }
      case 'trace': {
        const a = requireFields(args, 'trace', 'event_id');
        const node = await events.trace(a.event_id);
        if (!node) throw missing(`No event ${a.event_id} in this Company's log.`, ErrorCode.eventNotFound);
        return { ...node };
      }
      default:
        return runFlowAction(args, await ctx.services());
    }
  },
});

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
