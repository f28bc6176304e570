import type { CompanyServices, OpenedServices } from '../../company/index.js';
import { ErrorCode } from '../../../shared/errors.js';
import { invalid, unavailable } from '../../domain-error.js';
import { requireFields } from './require.js';

type FlowEvents = OpenedServices['events'];
type FlowArgs = {
  action: string;
  id?: string;
  since?: string;
  until?: string;
  configured_event_id?: string;
  failure_id?: string;
  rule?: Record<string, unknown>;
  from?: string;
  to?: string;
  max_firings?: number | null;
  max_tool_calls?: number | null;
  within_ms?: number;
};

/**
 * The seam (company/seam.ts) promises only the spec's services; the runtime this daemon opens has
 * the flow-control ones too. A runtime without them answers so, rather than failing somewhere deep.
 */
function flowEvents(services: CompanyServices): FlowEvents {
  const events = services.events as Partial<FlowEvents>;
  if (!events.failures || !events.preview || !events.backfill || !events.budget)
    throw unavailable('This runtime has no flow-control services.', ErrorCode.featureUnavailable);
  return events as FlowEvents;
}

/** Only the fields given: the service's own schema then refuses what is missing or extra, as REST does. */
const given = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * The `events` tool's flow-control actions, each calling the service its /api/events route calls,
 * so the answers and the refusals are the REST ones.
 */
export async function runFlowAction(args: FlowArgs, services: CompanyServices): Promise<Record<string, unknown>> {
  const events = flowEvents(services);
  switch (args.action) {
    case 'failures':
      return {
        failures: await events.failures.list(
          given({ configured_event_id: args.configured_event_id, since: args.since, until: args.until }),
        ),
      };
    case 'replay': {
      if (args.failure_id === undefined && args.configured_event_id === undefined)
        throw invalid(
          "Action 'replay' needs 'failure_id' (one failure), or 'configured_event_id' (its failures not replayed yet, with since/until).",
          ErrorCode.validationFailed,
        );
      const body = given({
        failure_id: args.failure_id,
        configured_event_id: args.configured_event_id,
        since: args.since,
        until: args.until,
      });
      return { ok: true, ...(await events.failures.replay(body)) };
    }
    case 'preview': {
      const a = requireFields(args, 'preview', 'rule', 'since');
      return { ok: true, ...(await events.preview(given({ event: a.rule, since: a.since, until: a.until }))) };
    }
    case 'backfill': {
      const a = requireFields(args, 'backfill', 'id', 'from', 'to');
      return { ok: true, ...(await events.backfill(a.id, { from: a.from, to: a.to })) };
    }
    case 'get_budget':
      return { budget: await events.budget.get() };
    case 'set_budget': {
      const a = requireFields(args, 'set_budget', 'within_ms');
      const budget = await events.budget.set({
        max_firings: a.max_firings ?? null,
        max_tool_calls: a.max_tool_calls ?? null,
        within_ms: a.within_ms,
      });
      return { ok: true, budget };
    }
    default:
      throw new Error(`not a flow-control action: ${args.action}`);
  }
}
