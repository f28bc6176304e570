import type { ConfiguredEvent, EventRow, NotFired } from '../company-services.js';
import { whyArmed, type EmitterRegistry } from './emitters.js';
import type { MatcherHook } from './matchers.js';

/** A trace lists at most this many configured events that did not fire for one event. */
const MAX_NOT_FIRED = 100;

/** Whether a configured event's scope (agent, session, quest) covers the event: an unset scope field matches anything. */
const scopeCovers = (cfg: ConfiguredEvent, event: EventRow): boolean =>
  (cfg.agent_id === null || cfg.agent_id === event.agent_id) &&
  (cfg.session_id === null || cfg.session_id === event.session_id) &&
  (cfg.quest_id === null || cfg.quest_id === event.quest_id);

/**
 * Splits the configured events of an event's pattern into those that fire and those that do not,
 * each with its reason (CONTRACT §8), checked in the order a reader would ask: armed, paused, out of
 * scope, then the matcher (a window in its cooldown says so). Markers with no tool calls would do
 * nothing either way and are left out of `notFired` — every session has nine, so listing them
 * would bury the rules that matter (and grow the firings table with every session).
 */
export async function considerConfigured(
  event: EventRow,
  all: ConfiguredEvent[],
  deps: { emitters: EmitterRegistry; matcher: MatcherHook },
) {
  const fire: ConfiguredEvent[] = [];
  const notFired: NotFired[] = [];
  const skip = (cfg: ConfiguredEvent, reason: NotFired['reason']) => {
    if (cfg.tool_calls.length > 0 && notFired.length < MAX_NOT_FIRED)
      notFired.push({ configured_event_id: cfg.id, reason });
  };
  for (const cfg of all) {
    if (whyArmed(deps.emitters, cfg.type)) skip(cfg, 'armed');
    else if (!cfg.enabled) skip(cfg, 'paused');
    else if (!scopeCovers(cfg, event)) skip(cfg, 'scope');
    else if (!(await deps.matcher.allows(cfg, event))) skip(cfg, (await deps.matcher.why?.(cfg, event)) ?? 'matcher');
    else fire.push(cfg);
  }
  return { fire, notFired };
}
