import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import { missing, parseInput } from '../../domain-error.js';
import type { RuntimeCore } from '../core.js';
import type { Agent, CompanyServices } from '../company-services.js';

export const messageSchema = z.object({
  to: z.string().trim().min(1).max(200),
  text: z.string().min(1).max(100_000),
  from: z.string().trim().min(1).max(200).optional(),
});

/**
 * `message_to`: `to` is an agent id, else a role. Work routed to a role goes to one of its agents,
 * in turn (round robin, by creation order), so a role's load spreads. The message lands in the
 * agent's newest active session — a new one is opened when it has none — and starts a turn.
 */
export function createMessenger(core: RuntimeCore, sessions: Required<CompanyServices['sessions']>) {
  const nextByRole = new Map<string, number>();

  const { agents, sessions: stored } = core.stores;
  const pickAgent = async (to: string): Promise<Agent> => {
    const byId = await agents.get(to);
    if (byId) return byId;
    const members = await agents.withRole(to);
    if (members.length === 0) {
      throw missing(`No agent has the id or role '${to}' in this Company.`, ErrorCode.noAgentForRecipient);
    }
    const turn = nextByRole.get(to) ?? 0;
    nextByRole.set(to, turn + 1);
    return members[turn % members.length]!;
  };

  return async function messageTo(input: { to: string; text: string; from?: string }, caused_by?: string | null) {
    const body = parseInput(messageSchema, input);
    const agent = await pickAgent(body.to);
    const active = await stored.list({ agent_id: agent.id, status: 'active' });
    const session = active.at(-1) ?? (await sessions.create({ agent_id: agent.id }, caused_by));
    const from = body.from ?? (caused_by ? `event:${caused_by}` : 'api');
    await sessions.append(session.id, { from, text: body.text }, { startTurn: true, caused_by });
    return { agent_id: agent.id, session_id: session.id };
  };
}
