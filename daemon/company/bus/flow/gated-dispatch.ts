import type { ConfiguredEvent, EventRow, Firing, NotFired } from '../../company-services.js';
import type { ChainBudgetService } from './budget.js';
import { gateFlow, type FlowGateDeps } from './flow-gate.js';

type Dispatch = (
  event: EventRow,
  fire: ConfiguredEvent[],
  notFired?: NotFired[],
) => Promise<{ fired: Firing[]; not_fired: NotFired[] }>;

export interface GatedDispatchDeps extends FlowGateDeps {
  budget: Pick<ChainBudgetService, 'check'>;
  /** The dispatcher's own dispatch (dispatch.ts): runs the calls and records them with what did not fire. */
  dispatch: Dispatch;
}

/**
 * Dispatch behind flow control and the chain budget, in that order: flow control decides what may
 * fire now, the budget what of that the chain may still cause, the dispatcher runs it and records
 * the rest as not fired, and the concurrency slots of what ran are settled after.
 */
export function createGatedDispatch(deps: GatedDispatchDeps) {
  const { flow, budget } = deps;
  return {
    async dispatch(event: EventRow, fire: ConfiguredEvent[], notFired: NotFired[] = []) {
      const gated = await gateFlow(deps, fire, event);
      const budgeted = await budget.check(event, gated.now);
      const result = await deps.dispatch(event, budgeted.now, [...notFired, ...gated.notFired, ...budgeted.notFired]);
      if (gated.admitted.length === 1) await flow.settle(gated.admitted[0]!, result.fired);
      else if (gated.admitted.length > 1) await Promise.all(gated.admitted.map((t) => flow.settle(t, result.fired)));
      return result;
    },
    /** A debounced rule whose quiet has come fires with its burst's last event, through throttle, slot and budget. */
    async fireDebounced(cfg: ConfiguredEvent, event: EventRow): Promise<void> {
      const ticket = flow.ticket(cfg, event);
      const why = await flow.admit(ticket);
      if (why) return void (await deps.dispatch(event, [], [{ configured_event_id: cfg.id, reason: why }]));
      const budgeted = await budget.check(event, [cfg]);
      const result = await deps.dispatch(event, budgeted.now, budgeted.notFired);
      await flow.settle(ticket, result.fired);
    },
  };
}
