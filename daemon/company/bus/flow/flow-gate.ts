import type { ConfiguredEvent, EventRow, NotFired } from '../../company-services.js';
import { hasFlow, type FlowControl, type FlowTicket } from './flow-control.js';

export interface FlowGateDeps {
  flow: FlowControl;
  /** Records a not-fired reason on an earlier event (a debounce replaced it). */
  recordNotFired(eventId: string, notFired: NotFired[]): Promise<void>;
  /** A debounce is now pending, due at `dueMs`: the walker wakes for it. */
  onDeferred(dueMs: number | null): void;
}

export interface Gated {
  now: ConfiguredEvent[];
  notFired: NotFired[];
  /** The rules of `now` under flow control, to settle once their calls ran. */
  admitted: FlowTicket[];
}

/**
 * Splits the configured events that would fire for `event` into those that fire now and those
 * flow control holds back, with why. Debounced rules fire nothing now: the event becomes the
 * latest of its burst, and the one it replaced is recorded as not fired (`debounced`). Rules
 * without flow control pass untouched, at no cost.
 */
export async function gateFlow(deps: FlowGateDeps, fire: ConfiguredEvent[], event: EventRow): Promise<Gated> {
  if (!fire.some(hasFlow)) return { now: fire, notFired: [], admitted: [] };
  const decide = async (cfg: ConfiguredEvent): Promise<NotFired['reason'] | FlowTicket | 'fire' | 'deferred'> => {
    if (!hasFlow(cfg)) return 'fire';
    const ticket = deps.flow.ticket(cfg, event);
    if (cfg.debounce) {
      const { replaced, due_ms } = await deps.flow.defer(ticket);
      if (replaced && replaced !== event.id)
        await deps.recordNotFired(replaced, [{ configured_event_id: cfg.id, reason: 'debounced' }]);
      deps.onDeferred(due_ms);
      return 'deferred';
    }
    return (await deps.flow.admit(ticket)) ?? ticket;
  };
  const decisions = fire.length === 1 ? [await decide(fire[0]!)] : await Promise.all(fire.map(decide));
  const gated: Gated = { now: [], notFired: [], admitted: [] };
  fire.forEach((cfg, i) => {
    const d = decisions[i]!;
    if (d === 'fire') gated.now.push(cfg);
    else if (typeof d === 'object') gated.now.push(cfg), gated.admitted.push(d);
    else if (d !== 'deferred') gated.notFired.push({ configured_event_id: cfg.id, reason: d });
  });
  return gated;
}
