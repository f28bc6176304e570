import * as z from 'zod';
import { BUILTIN_TOOL_CATALOG } from '../../company/index.js';
import { storableText } from '../../../shared/schemas/storable-text.js';
import { backfillTick, FLOW_ACTIONS, flowInput, flowOutput, replayedOutput } from './events-flow-schema.js';

/** The MCP `events` tool's input and output schemas (its handler is events.ts). */
const id = z.string().min(1).check(storableText);
const jsonObject = z.record(z.string(), z.unknown());

/**
 * A configured event's tool call. The names and their arguments come from the runtime's own tool
 * list, so the schema offers exactly what the runtime accepts. The names are shown as a JSON
 * Schema enum (for the model) but checked by the runtime, whose refusal names the tool and the
 * choices, the same sentence as POST /api/events.
 */
const toolCall = z.strictObject({
  tool: z
    .string()
    .min(1)
    .meta({ enum: BUILTIN_TOOL_CATALOG.map((t) => t.name) })
    .describe('Which runtime tool to run when the event fires.'),
  args: jsonObject
    .default({})
    .describe(
      `Arguments of that tool; a string may refer to the firing event as {{event.<field>}}. ${BUILTIN_TOOL_CATALOG.map((t) => `${t.name}: ${t.description}`).join(' ')}`,
    ),
});

export const PREFIXES =
  'session, context, schedule, webhook, loop, guardrail, graph_guardrail, shell, ideas, agent, question';

export const input = z.strictObject({
  action: z
    .enum(['create', 'update', 'list', 'enable', 'disable', 'delete', 'trigger', 'trace', ...FLOW_ACTIONS])
    .describe('What to do; the other fields each action uses are listed in the tool description.'),
  id: id
    .optional()
    .describe(
      'update, enable, disable, delete: the configured event (cev_…). trigger: fire this configured event now instead of emitting a `type`. backfill: the schedule: configured event.',
    ),
  type: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      `create: the pattern <prefix>:<name> to react to, prefix one of ${PREFIXES} (e.g. session:stopped, or schedule:<cron> such as schedule:0 9 * * 1-5). trigger: the type of the event to emit. list: same as event_type.`,
    ),
  tool_calls: z
    .array(toolCall)
    .max(50)
    .optional()
    .describe(
      'create: what to run, in order, each time the pattern matches (empty or absent: a marker that only records matches). update: replaces the list.',
    ),
  enabled: z.boolean().optional().describe('create: start enabled (default true). update: enable or pause.'),
  timezone: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(
      'create, schedule: patterns only: the IANA zone of the cron expression (default UTC), e.g. Europe/Paris.',
    ),
  matcher: jsonObject
    .optional()
    .describe(
      'create, update: an optional extra condition, e.g. {"kind":"exact","agent_id":"agt_…"}; see the platform\'s events documentation for predicated and window matchers.',
    ),
  retry: jsonObject
    .nullable()
    .optional()
    .describe(
      'create, update (null: no retries): retry a tool call whose tool failed, e.g. {"max_attempts":3,"backoff":{"initial_ms":10000,"max_ms":600000,"jitter":"full"}}. max_attempts counts every run (1-10); backoff is optional. Default: no retries.',
    ),
  schedule_policy: jsonObject
    .nullable()
    .optional()
    .describe(
      'create, update (null: the defaults), schedule: patterns only: {"catch_up":"skip|latest|all","max_catch_up":1-1000,"overlap":"skip|allow","start_at":ISO,"end_at":ISO}, every field optional (default: the daemon\'s catch-up, overlap allow, no bounds).',
    ),
  agent_id: id
    .optional()
    .describe(
      'create: only events about this agent match. trigger: the agent the emitted event is about. list: filter.',
    ),
  session_id: id
    .optional()
    .describe('create: only events about this session match. trigger: the session it is about. list: filter.'),
  quest_id: id
    .optional()
    .describe('create: only events about this quest match. trigger: the quest it is about. list: filter.'),
  content: jsonObject
    .optional()
    .describe(
      'trigger: the payload of the emitted event, a JSON object (e.g. {"reason":"manual"}); with `id`, default {"fired_configured_event": id}.',
    ),
  event_type: z.string().optional().describe('list: only events of this type.'),
  since: z
    .string()
    .optional()
    .describe(
      'list: an ISO time; events created at or after it. failures, replay (with configured_event_id): failed at or after it. preview: the start of the stored events to run the rule over.',
    ),
  since_id: z
    .string()
    .optional()
    .describe(
      "list: events strictly after this event id: pass the previous page's next_since_id (or cursor) to read on.",
    ),
  limit: z.number().int().min(1).max(1000).optional().describe('list: page size, 1-1000 (default 100).'),
  configured: z
    .boolean()
    .optional()
    .describe('list: true lists the configured events (the reactions) instead of the event log.'),
  event_id: id
    .optional()
    .describe('trace: the event (evt_…) whose causation tree to show, e.g. the event a trigger answered.'),
  idempotency_key: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'trigger: a repeat with the same key within 24 hours answers what the first call answered and fires nothing.',
    ),
  ...flowInput,
});

const firing = z
  .object({
    configured_event_id: z.string().describe('The configured event that reacted.'),
    tool: z.string().describe('The runtime tool it ran.'),
    ok: z.boolean(),
    result: z
      .unknown()
      .optional()
      .describe(
        'What the tool returned when ok: the quest (quests.*), the session (sessions.update) or {agent_id, session_id} (message_to).',
      ),
    error: z.string().optional().describe('Why the tool call failed, when not ok.'),
    skipped: z.string().optional().describe('"depth_limit" when a likely loop stopped the call before it ran.'),
    attempt: z.number().optional().describe('With a retry policy: which run of the call this was (1 = the first).'),
    next_attempt_at: z.string().optional().describe('With a retry policy: this attempt failed; the next is due then.'),
    outcome: z
      .string()
      .optional()
      .describe('With a retry policy, on the last attempt: succeeded, failed, interrupted or cancelled.'),
  })
  .loose();

/** What each action answers (the same as the /api/events routes). Every field is optional: each action fills its own. */
export const output = z
  .object({
    ok: z
      .boolean()
      .optional()
      .describe('create, update, enable, disable, delete, trigger, replay, preview, backfill, set_budget: true.'),
    event: jsonObject
      .optional()
      .describe(
        'create/update/enable/disable: the configured event {id, type, tool_calls, status: active|paused|armed, enabled, …}; status armed means it never fires: nothing emits that prefix, or its emitter never produces that name (armed_reason says which; names_that_fire lists the names that do). trigger, trace: the logged event {id, type, content, causation_id, correlation_id, created_at, …}.',
      ),
    events: z
      .array(jsonObject)
      .optional()
      .describe('list: the events, oldest first (with configured=true: the configured events).'),
    next_since_id: z
      .string()
      .nullable()
      .optional()
      .describe('list: pass as since_id for the next page; null when this was the last one.'),
    cursor: z
      .string()
      .nullable()
      .optional()
      .describe('list: the id to follow the log from later (the last event seen).'),
    fired: z
      .array(z.union([firing, backfillTick]))
      .optional()
      .describe('trigger, trace: each tool call the event caused. backfill: each tick fired {tick, event_id}.'),
    children: z
      .array(jsonObject)
      .optional()
      .describe('trace: the events the tool calls emitted, each {event, fired, children}.'),
    truncated: z
      .boolean()
      .optional()
      .describe('trace: true when the tree was cut at its size limit. preview: true past 10000 events.'),
    id: z.string().optional().describe('delete: the deleted configured event.'),
    deleted: z.boolean().optional().describe('delete: true.'),
    replayed: replayedOutput,
    ...flowOutput,
  })
  .loose();
