import * as z from 'zod';
import { agentRecord } from './records-schema.js';
import { requireFields } from './require.js';
import { defineTool } from './types.js';

export const agentsInput = z.strictObject({
  action: z.enum(['list', 'create']),
  name: z.string().min(1).max(100).optional().describe("create: the agent's name (required)."),
  role: z.string().min(1).max(100).optional().describe('create: a role, which message_to can address.'),
});

export const agentsOutput = z
  .object({
    ok: z.boolean().optional().describe('create: true.'),
    agent: agentRecord.optional().describe('create: the new agent.'),
    agents: z.array(agentRecord).optional().describe('list: every agent of the Company.'),
  })
  .loose();

/** Agents of the key's Company: the same services as /api/agents. */
export const agentsTool = defineTool({
  name: 'agents',
  title: 'Agents',
  description: 'Agents of the Company. Actions: list, create {name, role?}.',
  input: agentsInput,
  output: agentsOutput,
  // create only adds, and emits no event (so no configured event fires); a repeat adds a second agent.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (args, ctx) => {
    const agents = (await ctx.services()).agents;
    if (args.action === 'list') return { agents: await agents.list() };
    const a = requireFields(args, 'create', 'name');
    return { ok: true, agent: await agents.create({ name: a.name, role: a.role ?? null }) };
  },
});
