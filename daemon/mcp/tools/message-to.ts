import * as z from 'zod';
import { defineTool } from './types.js';

const input = z.strictObject({
  to: z.string().min(1).max(200).describe('An agent id, or a role (one of its agents is picked).'),
  text: z.string().min(1).max(20_000).describe('The message.'),
  idempotency_key: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'A repeat with the same key within 24 hours answers the first answer: no second message, no second turn.',
    ),
});

const output = z
  .object({
    ok: z.boolean(),
    agent_id: z.string().describe('The agent that got the message.'),
    session_id: z.string().nullable().describe('The session it was added to (opened when the agent had none active).'),
    replayed: z
      .boolean()
      .optional()
      .describe('true when an idempotency_key repeated an earlier call: nothing was sent.'),
  })
  .loose();

/** Sends a message to an agent, as the `message_to` tool call of a configured event does. */
export const messageToTool = defineTool({
  name: 'message_to',
  title: 'Message an agent',
  description:
    'Sends a message to an agent of the Company, by agent id or by role. Answers which agent got it and in which session.',
  input,
  output,
  // Starting the agent's turn emits session events, and the configured events they fire may stop
  // sessions or close quests: the call is not only additive. A repeat sends again (unless it
  // carries the same idempotency_key, which a hint for every call cannot assume).
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: async (args, ctx) => {
    const services = await ctx.services();
    const { idempotency_key: key, ...request } = args;
    const send = async () => ({ ok: true, ...(await services.messageTo(request)) });
    // An agent that retries after a time-out must not start a second turn (and emit its events twice).
    if (!key || !services.events.once) return send();
    const { answer, replayed } = await services.events.once('mcp_message_to', key, request, send);
    return replayed ? { ...answer, replayed: true } : answer;
  },
});
