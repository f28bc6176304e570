import * as z from 'zod/mini';

/** A quest's states, in the order a quest usually moves through them. */
export const QUEST_STATUSES = ['open', 'in_progress', 'done', 'failed'] as const;

/** Query strings and bodies of the runtime routes (agents, sessions, quests: docs/runtime.md). */
const id = () => z.string().check(z.minLength(1));
export const sessionListQuery = z.object({
  agent_id: z.optional(id()),
  status: z.optional(z.enum(['active', 'stopped'])),
});
export const questListQuery = z.object({
  status: z.optional(z.enum(QUEST_STATUSES)),
  agent_id: z.optional(id()),
  session_id: z.optional(id()),
});
export const sessionAppendBody = z.object({
  text: z.string().check(z.minLength(1), z.maxLength(100_000)),
  from: z._default(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)), 'user'),
  start_turn: z._default(z.boolean(), false),
});
export const sessionChangeBody = z.object({
  gateway_channel_id: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(200)))),
  context_budget: z.optional(z.nullable(z.int().check(z.minimum(1)))),
  status: z.optional(z.literal('stopped')),
});

/** Compaction as delegation by hand; the role defaults to the daemon's --compaction-role. */
export const sessionCompactBody = z.strictObject({
  role: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
});
