/**
 * Spec §6.5 rule 4: an inbound channel message on a bridged session either starts a turn or is only
 * appended to the transcript. A turn costs model time, so only a message meant for the agent starts
 * one: a direct message, or one that mentions the agent by `@name`, `@id` or a chat-style `<@id>`.
 * Matching is case-insensitive and whole-word: `@bob` does not mention `bobby`, and an e-mail
 * address such as `x@bob.com` is not a mention.
 */
export type GateDecision = 'turn' | 'append';

export interface GateAgent {
  id: string;
  name: string;
}

export interface InboundMessage {
  text: string;
  /** A one-to-one message (a DM, a mail to the agent's own address): always for the agent. */
  direct?: boolean;
}

export function decideMention(agent: GateAgent, message: InboundMessage): GateDecision {
  if (message.direct) return 'turn';
  return mentions(message.text, agent) ? 'turn' : 'append';
}

function mentions(text: string, agent: GateAgent): boolean {
  const sample = text.length > 16_384 ? text.slice(0, 16_384) : text;
  const handles = [agent.name, agent.id].filter((h) => h.trim() !== '');
  return handles.some((h) => {
    const escaped = h
      .trim()
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\s+/g, '\\s+');
    // Before the @: start or a character that cannot end an e-mail local part. After: not a name character.
    const at = new RegExp(`(?:^|[^\\w.@+-])@${escaped}(?![\\w-])`, 'i');
    const slack = new RegExp(`<@${escaped}>`, 'i');
    return at.test(sample) || slack.test(sample);
  });
}
