import type { CompanyServices } from '../../runtime/services.js';
import { decideMention, type GateDecision } from './mention-gate.js';

/**
 * Lands an inbound channel message on every active session bridged to that channel
 * (`gateway_channel_id`), through the mention gate: `turn` appends and starts an execution
 * (`session:execution_start`), `append` only adds it to the transcript. Called by the webhook route
 * after the `webhook:<channel>` event is emitted, with that event as the cause.
 */
export interface ChannelMessage {
  channel: string;
  from: string;
  text: string;
  direct?: boolean;
}

export interface RoutedMessage {
  session_id: string;
  agent_id: string;
  decision: GateDecision;
}

type Deps = Pick<CompanyServices, 'agents'> & { sessions: Pick<CompanyServices['sessions'], 'list' | 'append'> };

export async function routeInboundMessage(
  services: Deps,
  message: ChannelMessage,
  causedBy: string | null,
): Promise<RoutedMessage[]> {
  const bridged = await services.sessions.list({ status: 'active', gateway_channel_id: message.channel });
  const routed: RoutedMessage[] = [];
  for (const session of bridged) {
    const agent = await services.agents.get(session.agent_id);
    const decision = agent ? decideMention(agent, message) : 'append';
    // A sender can write any `from`: one that names the agent (its id, its name, "agent") is kept
    // visibly outside — the transcript never shows it as the agent, and the detectors never read it
    // as the agent's own output (which would let a webhook trip guardrails in the agent's name).
    const posing =
      agent && [agent.id.toLowerCase(), agent.name.toLowerCase(), 'agent'].includes(message.from.toLowerCase());
    const from = posing ? `webhook:${message.channel} (as ${message.from})` : message.from;
    await services.sessions.append(
      session.id,
      { from, text: message.text },
      { startTurn: decision === 'turn', caused_by: causedBy, external: true },
    );
    routed.push({ session_id: session.id, agent_id: session.agent_id, decision });
  }
  return routed;
}

/**
 * Reads a chat-style message out of a webhook body: `{ text, from?, direct? }` (also `message` for
 * the text and `user`/`sender` for the author). Null when the body carries no text: the delivery is
 * then an event only, not a message.
 */
export function messageFromBody(channel: string, body: unknown): ChannelMessage | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const text = typeof b.text === 'string' ? b.text : typeof b.message === 'string' ? b.message : null;
  if (text === null || text.trim() === '') return null;
  const from =
    [b.from, b.user, b.sender].find((v): v is string => typeof v === 'string' && v !== '') ?? `webhook:${channel}`;
  return { channel, from: from.slice(0, 200), text: text.slice(0, 16_384), direct: b.direct === true };
}
