import * as z from 'zod';
import { storableText } from '../../../shared/schemas/storable-text.js';

/**
 * The `events` tool's arguments and answers for flow control and its tools: failures and their
 * replay, the dry run, a schedule's backfill and the chain budget. Kept apart from events-schema.ts
 * (the spec's seven actions) so each file stays one concern; both spread into the one tool.
 */
const id = z.string().min(1).max(300).check(storableText);
const jsonObject = z.record(z.string(), z.unknown());
const iso = z.string().min(1).max(100);
const cap = z.number().int().min(1).max(1_000_000).nullable();

export const FLOW_ACTIONS = ['failures', 'replay', 'preview', 'backfill', 'get_budget', 'set_budget'] as const;

export const flowInput = {
  debounce: jsonObject
    .nullable()
    .optional()
    .describe(
      'create, update (null removes it): fire once, with the last event of a burst, after period_ms of quiet (at the latest max_wait_ms after its first event): {"key":"{{event.agent_id}}","period_ms":60000,"max_wait_ms":600000}; key optional (one bucket per distinct value).',
    ),
  throttle: jsonObject
    .nullable()
    .optional()
    .describe(
      'create, update (null removes it): at most limit firings per period_ms (sliding), the rest not fired (throttled): {"key":"{{event.agent_id}}","limit":5,"period_ms":3600000}.',
    ),
  concurrency: jsonObject
    .nullable()
    .optional()
    .describe(
      'create, update (null removes it): at most limit firings whose work is still open (a quest it created not done/failed, a retry pending); {"limit":1} makes a singleton.',
    ),
  until: iso
    .optional()
    .describe('failures, replay (with configured_event_id), preview: an ISO time, inclusive (preview: default now).'),
  configured_event_id: id
    .optional()
    .describe(
      'failures: only the failures of this configured event (cev_…). replay: replay every failure of it not replayed yet (with since/until).',
    ),
  failure_id: id.optional().describe('replay: one failure, by the id the failures action lists (evt_…|cev_…|0).'),
  rule: jsonObject
    .optional()
    .describe(
      'preview: the configured event to try, as create takes it ({type, tool_calls, matcher?, debounce?, throttle?, concurrency?, …}); nothing is stored or run.',
    ),
  from: iso.optional().describe('backfill: the first ISO time of the past range whose ticks to run.'),
  to: iso.optional().describe('backfill: the last ISO time of the range (not in the future).'),
  max_firings: cap
    .optional()
    .describe('set_budget: firings one causal chain may cause within within_ms (null: no cap).'),
  max_tool_calls: cap
    .optional()
    .describe('set_budget: tool calls one causal chain may cause within within_ms (null: no cap).'),
  within_ms: z
    .number()
    .int()
    .optional()
    .describe('set_budget: the sliding window of both caps, 1000-604800000 ms. Both caps null turns the budget off.'),
};

const failure = z
  .object({
    id: z.string().describe('Pass as failure_id to replay it.'),
    event_id: z.string(),
    configured_event_id: z.string(),
    tool: z.string(),
    error: z.string(),
    attempts: z.number(),
    failed_at: z.string(),
    replayed_at: z.string().nullable(),
    replay_event_id: z.string().nullable().describe('The replay event, once replayed.'),
  })
  .loose();

const replayedCall = z
  .object({ failure_id: z.string(), event_id: z.string(), ok: z.boolean(), error: z.string().optional() })
  .loose();

export const flowOutput = {
  failures: z.array(failure).optional().describe('failures: tool calls that failed for good, oldest first.'),
  skipped: z
    .array(
      z
        .object({
          reason: z.string().describe('replay: already_replayed or event_gone. backfill: overlap.'),
          failure_id: z.string().optional(),
          replay_event_id: z.string().nullable().optional(),
          tick: z.string().optional(),
          event_id: z.string().optional(),
        })
        .loose(),
    )
    .optional()
    .describe('replay: failures not run again, and why. backfill: ticks logged but skipped by the overlap policy.'),
  would_fire: z
    .array(z.object({ event_id: z.string(), tool_calls: z.array(jsonObject) }).loose())
    .optional()
    .describe('preview: each stored event the rule would have fired for, with its calls, args resolved.'),
  not_fired: z
    .array(
      z
        .object({ reason: z.string(), configured_event_id: z.string().optional(), event_id: z.string().optional() })
        .loose(),
    )
    .optional()
    .describe(
      'trigger, trace: configured events of the type that did not fire, and why (paused, scope, matcher, debounced, throttled, concurrency, budget, …). preview: the events the rule would not have fired for.',
    ),
  budget: z
    .object({ max_firings: z.number().nullable(), max_tool_calls: z.number().nullable(), within_ms: z.number() })
    .nullable()
    .optional()
    .describe('get_budget, set_budget: the chain budget, null when off.'),
};

/** `replayed` is a flag on a repeated trigger and the list of replays on replay. */
export const replayedOutput = z
  .union([z.boolean(), z.array(replayedCall)])
  .optional()
  .describe(
    'trigger with idempotency_key: true when this repeats an earlier call; nothing fired again. replay: each failure run again, [{failure_id, event_id (the replay event), ok, error?}].',
  );

/** Backfill answers the ticks it fired in `fired`, where trigger and trace answer firings. */
export const backfillTick = z
  .object({ tick: z.string(), event_id: z.string() })
  .describe('backfill: a tick fired, and its schedule: event.');
