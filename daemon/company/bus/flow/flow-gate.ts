import type { ConfiguredEvent, EventRow, NotFired } from '../../company-services.js';
import { hasFlow, type FlowControl } from './flow-control.js';

export interface FlowGateDeps {
  flow: FlowControl;
  /** Records a not-fired reason on an earlier event (a debounce replaced it). */
  recordNotFired(eventId: string, notFired: NotFired[]): Promise<void>;
  /** A debounce is now pending, due at `dueMs`: the walker wakes for it. */
  onDeferred(dueMs: number | null): void;
}

/**
 * Splits the configured events that would fire for `event` into those that fire now and those
 * flow control holds back, with why. Debounced rules fire nothing now: the event becomes the
 * latest of its burst, and the one it replaced is recorded as not fired (`debounced`). Rules
 * without flow control pass untouched, at no cost.
 */
export async function gateFlow(
  deps: FlowGateDeps,
  fire: ConfiguredEvent[],
  event: EventRow,
): Promise<{ now: ConfiguredEvent[]; notFired: NotFired[] }> {
  if (!fire.some(hasFlow)) return { now: fire, notFired: [] };
  const decisions = await Promise.all(
    fire.map(async (cfg): Promise<NotFired['reason'] | 'fire' | 'deferred'> => {
      if (!hasFlow(cfg)) return 'fire';
      if (cfg.debounce) {
        const { replaced, due_ms } = await deps.flow.defer(cfg, event);
        if (replaced && replaced !== event.id)
          await deps.recordNotFired(replaced, [{ configured_event_id: cfg.id, reason: 'debounced' }]);
        deps.onDeferred(due_ms);
        return 'deferred';
      }
      return (await deps.flow.admit(cfg, event)) ?? 'fire';
    }),
  );
  const now: ConfiguredEvent[] = [];
  const notFired: NotFired[] = [];
  fire.forEach((cfg, i) => {
    const d = decisions[i]!;
    if (d === 'fire') now.push(cfg);
    else if (d !== 'deferred') notFired.push({ configured_event_id: cfg.id, reason: d });
  });
  return { now, notFired };
}
