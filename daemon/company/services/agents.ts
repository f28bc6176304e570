import * as z from 'zod';
import { parseInput } from '../../domain-error.js';
import { copy, nowIso, type RuntimeCore } from '../core.js';
import type { Agent, CompanyServices } from '../company-services.js';

const newAgentSchema = z.object({
  name: z.string().trim().min(1).max(100),
  role: z.string().trim().min(1).max(100).nullable().optional(),
});

/** Agents: a name and an optional role (work sent to a role goes to one of its agents). */
export function createAgentsService(core: RuntimeCore): CompanyServices['agents'] {
  const agents = core.stores.agents;
  return {
    async create(input) {
      const body = parseInput(newAgentSchema, input);
      const agent: Agent = { id: core.ids('agt'), name: body.name, role: body.role ?? null, created_at: nowIso(core) };
      await agents.create(agent);
      return copy(agent);
    },
    get: async (id) => {
      const agent = await agents.get(id);
      return agent ? copy(agent) : undefined;
    },
    list: async () => (await agents.list()).map(copy),
  };
}
