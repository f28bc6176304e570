import type { CompanyServices } from '../company-services.js';
import { decideMention, type GateDecision } from './mention-gate.js';

/**
 * Lands an inbound channel message on every active session bridged to that channel
 * (`gateway_channel_id`), through the mention gate: `turn` appends and starts an execution
 * (`session:execution_start`), `append` only adds it to the transcript. Called by the webhook route
 * after the `webhook:<channel>` event is emitted, with that event as the cause.
 */
export interface ChannelMessage {
  channel: string;
  /** Who the body says wrote it (`from` / `user` / `sender`), cleaned; null when it names no one. */
  author: string | null;
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
    await services.sessions.append(
      session.id,
      { from: inboundLabel(message), text: message.text },
      { startTurn: decision === 'turn', caused_by: causedBy, external: true },
    );
    routed.push({ session_id: session.id, agent_id: session.agent_id, decision });
  }
  return routed;
}

/**
 * The `from` an inbound message has in the transcript: always its channel, with the author the
 * sender claimed after it — `webhook:<channel> (as <author>)`, or `webhook:<channel>`. A sender can
 * write any author: the agent's name with a space or a look-alike letter ("Аda" with a Cyrillic А),
 * "Ada (agent)", or "user" and "system", which is what the owner's own messages and the platform's
 * say. No list of forbidden names can keep up with that, so no author is ever shown on its own.
 * (Nor is an inbound message ever read as the agent's output: it is appended as `external`.)
 */
export function inboundLabel(message: Pick<ChannelMessage, 'channel' | 'author'>): string {
  return message.author === null ? `webhook:${message.channel}` : `webhook:${message.channel} (as ${message.author})`;
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
  const claimed = [b.from, b.user, b.sender].find((v): v is string => typeof v === 'string' && v !== '');
  return {
    channel,
    author: claimed === undefined ? null : cleanAuthor(claimed),
    text: text.slice(0, 16_384),
    direct: b.direct === true,
  };
}

/**
 * The author as shown inside the label: control and format characters (a newline that starts what
 * looks like another message, a right-to-left override that turns the label around) become spaces,
 * runs of space one, at most 200 characters. Null when nothing is left.
 */
function cleanAuthor(raw: string): string | null {
  const flat = raw
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const clipped = Array.from(flat).slice(0, 200).join('');
  return clipped === '' ? null : clipped;
}
