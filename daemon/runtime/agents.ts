import { z } from 'zod';
import { validate } from '../http/validate.js';
import { copy, nowIso, ownEntry, type RuntimeCore } from './core.js';
import type { Agent, CompanyServices } from './services.js';

export const newAgentSchema = z.object({
  name: z.string().trim().min(1).max(100),
  role: z.string().trim().min(1).max(100).nullable().optional(),
});

/** Agents: a name and an optional role (work sent to a role goes to one of its agents). */
export function createAgentsService(core: RuntimeCore): CompanyServices['agents'] {
  const data = () => core.docs.runtime.data;
  return {
    async create(input) {
      const body = validate(newAgentSchema, input);
      const agent: Agent = { id: core.ids('agt'), name: body.name, role: body.role ?? null, created_at: nowIso(core) };
      await core.docs.runtime.update((d) => void (d.agents[agent.id] = agent));
      return copy(agent);
    },
    get: (id) => {
      const agent = ownEntry(data().agents, id);
      return agent ? copy(agent) : undefined;
    },
    list: () => Object.values(data().agents).map(copy),
  };
}
