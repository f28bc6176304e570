import { z } from 'zod';
import { defineTool } from './types.js';

const input = z.object({
  to: z.string().min(1).max(200).describe('An agent id, or a role (one of its agents is picked).'),
  text: z.string().min(1).max(20_000).describe('The message.'),
});

/** Sends a message to an agent, as the `message_to` tool call of a configured event does. */
export const messageToTool = defineTool({
  name: 'message_to',
  title: 'Message an agent',
  description:
    'Sends a message to an agent of the Company, by agent id or by role. Answers which agent got it and in which session.',
  input,
  run: async (args, ctx) => ({
    ok: true,
    ...(await (await ctx.services()).messageTo({ to: args.to, text: args.text })),
  }),
});
