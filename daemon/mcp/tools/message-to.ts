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

/** Sends a message to an agent, as the `message_to` tool call of a configured event does. */
export const messageToTool = defineTool({
  name: 'message_to',
  title: 'Message an agent',
  description:
    'Sends a message to an agent of the Company, by agent id or by role. Answers which agent got it and in which session.',
  input,
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
