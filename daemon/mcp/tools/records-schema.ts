import * as z from 'zod';
import { QUEST_STATUSES } from '../../../shared/schemas/runtime.js';

/**
 * The runtime's records as the tools answer them (shared/runtime-records.ts), for `outputSchema`.
 * Loose objects: a record may grow fields (CONTRACT.md: "add fields freely"), and an SDK client
 * that validates structuredContent must not fail on one it does not know yet.
 */

/**
 * Any JSON value, each kind spelt out (not an untyped `{}`): what a quest produced is the
 * caller's, a summary text as often as an object. Not recursive, so clients that cannot follow a
 * `$ref` still read it.
 */
export const jsonValue = z
  .union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown()), z.record(z.string(), z.unknown())])
  .describe('Any JSON value: a text, a number, a list or an object such as {"pages":3}.');

const nullableId = z.string().nullable();

export const agentRecord = z
  .object({ id: z.string(), name: z.string(), role: z.string().nullable(), created_at: z.string() })
  .loose()
  .describe('An agent {id, name, role, created_at}.');

export const questRecord = z
  .object({
    id: z.string(),
    title: z.string(),
    status: z.enum(QUEST_STATUSES),
    agent_id: nullableId,
    session_id: nullableId,
    result: jsonValue.describe('What the quest produced (null until set).'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .loose()
  .describe('A quest {id, title, status, agent_id, session_id, result, created_at, updated_at}.');

export const sessionRecord = z
  .object({
    id: z.string(),
    agent_id: z.string(),
    status: z.string().describe('active until stopped.'),
    gateway_channel_id: nullableId,
    transcript: z
      .array(z.object({ at: z.string(), from: z.string(), text: z.string() }).loose())
      .describe('The whole transcript on a read; the newest messages in the answer to a change.'),
    created_at: z.string(),
  })
  .loose()
  .describe(
    'An agent session {id, agent_id, status, gateway_channel_id, transcript, created_at, turn_status, context_budget, context_used, compaction, …}.',
  );
