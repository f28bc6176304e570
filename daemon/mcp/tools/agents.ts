import * as z from 'zod';
import { requireFields } from './require.js';
import { defineTool } from './types.js';

const input = z.strictObject({
  action: z.enum(['list', 'create']),
  name: z.string().min(1).max(100).optional().describe("create: the agent's name (required)."),
  role: z.string().min(1).max(100).optional().describe('create: a role, which message_to can address.'),
});

/** Agents of the key's Company: the same services as /api/agents. */
export const agentsTool = defineTool({
  name: 'agents',
  title: 'Agents',
  description: 'Agents of the Company. Actions: list, create {name, role?}.',
  input,
  run: async (args, ctx) => {
    const agents = (await ctx.services()).agents;
    if (args.action === 'list') return { agents: await agents.list() };
    const a = requireFields(args, 'create', 'name');
    return { ok: true, agent: await agents.create({ name: a.name, role: a.role ?? null }) };
  },
});
