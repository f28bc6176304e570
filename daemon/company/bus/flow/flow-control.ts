import type { Clock } from '../../../clock.js';
import type { ConfiguredEvent, EventRow, Firing, NotFired } from '../../company-services.js';
import type { FlowStore } from '../../../store/flow-types.js';
import type { QuestStore, RetryStore } from '../../../store/runtime-types.js';
import { resolveText } from '../references.js';

/** A slot whose firing never reported back (its daemon stopped mid-dispatch) is free again after this. */
const SLOT_LEASE_MS = 10 * 60_000;
const ENDED = new Set(['done', 'failed']);

type Reason = Extract<NotFired['reason'], 'throttled' | 'concurrency'>;

/** The bucket an event falls in: its key template resolved, or one bucket for the rule. */
export function bucketOf(template: string | null | undefined, event: EventRow): string {
  if (!template) return '*';
  return `=${resolveText(template, event)}`.slice(0, 500);
}

/**
 * One firing of a rule under flow control, with its state keys resolved once: deferring, admitting
 * and settling the firing all use the same keys, and a key template the rule's debounce, throttle
 * and concurrency share (the usual case: per agent) is resolved once for all three.
 */
export interface FlowTicket {
  cfg: ConfiguredEvent;
  event: EventRow;
  debounce: string | null;
  throttle: string | null;
  concurrency: string | null;
}

/** The state keys of a rule: `<cfg id>#` first, so forgetting a rule is one prefix. */
export const flowPrefix = (cfgId: string) => `${cfgId}#`;
const keyOf = (cfgId: string, kind: 'd' | 't' | 'c', bucket: string) => `${flowPrefix(cfgId)}${kind}|${bucket}`;

/** The ticket of `cfg` firing for `event`: each policy's state key, its template resolved once. */
export function ticketOf(cfg: ConfiguredEvent, event: EventRow): FlowTicket {
  const buckets = new Map<string, string>();
  const key = (kind: 'd' | 't' | 'c', policy: { key?: string | null } | null | undefined) => {
    if (!policy) return null;
    const template = policy.key ?? '';
    let bucket = buckets.get(template);
    if (bucket === undefined) buckets.set(template, (bucket = bucketOf(template, event)));
    return keyOf(cfg.id, kind, bucket);
  };
  return {
    cfg,
    event,
    debounce: key('d', cfg.debounce),
    throttle: key('t', cfg.throttle),
    concurrency: key('c', cfg.concurrency),
  };
}

export const hasFlow = (cfg: ConfiguredEvent) => Boolean(cfg.debounce || cfg.throttle || cfg.concurrency);

export interface FlowControlDeps {
  store: FlowStore;
  clock: Clock;
  quests: Pick<QuestStore, 'get'>;
  retries: Pick<RetryStore, 'of'>;
}

/**
 * Debounce, throttle and concurrency of configured events. Dispatch asks `defer` first (a debounced
 * rule fires later, from the walker, with the last event of its burst), then `admit` for what fires
 * now, then `settle` once the calls ran: a concurrency slot is held while a quest the firing created
 * is open or one of its calls waits for a retry, and is found free the next time someone asks.
 */
export function createFlowControl(deps: FlowControlDeps) {
  const { store, clock } = deps;

  /** Whether a slot's work is still open; frees it when not. */
  const stillOpen = async (key: string, cfgId: string, slot: Awaited<ReturnType<FlowStore['slots']>>[number]) => {
    let open: boolean;
    if (slot.quest_ids === null) open = clock.now() - slot.taken_ms < SLOT_LEASE_MS;
    else {
      const [quests, retries] = await Promise.all([
        Promise.all(slot.quest_ids.map((id) => deps.quests.get(id))),
        deps.retries.of(slot.holder),
      ]);
      open =
        quests.some((q) => q !== undefined && !ENDED.has(q.status)) ||
        retries.some((r) => r.configured_event_id === cfgId);
    }
    if (!open) await store.releaseSlot(key, slot.holder);
    return open;
  };

  const claim = async ({ cfg, event, concurrency: key }: FlowTicket): Promise<boolean> => {
    const limit = cfg.concurrency!.limit;
    if (await store.claimSlot(key!, event.id, limit, clock.now())) return true;
    // Full: free the slots whose work has ended since, then ask once more.
    const slots = await store.slots(key!);
    const open = await Promise.all(slots.map((s) => stillOpen(key!, cfg.id, s)));
    if (open.every(Boolean)) return false;
    return store.claimSlot(key!, event.id, limit, clock.now());
  };

  return {
    ticket: ticketOf,
    /** A debounced rule: records the event as its burst's latest; answers the event it replaced (not fired). */
    async defer(ticket: FlowTicket): Promise<{ replaced: string | null; due_ms: number | null }> {
      const d = ticket.cfg.debounce!;
      const { replaced } = await store.debounce(
        { key: ticket.debounce!, configured_event_id: ticket.cfg.id, event_id: ticket.event.id },
        clock.now(),
        d.period_ms,
        d.max_wait_ms ?? null,
      );
      return { replaced, due_ms: await store.nextDueMs() };
    },
    /** Null when the rule may fire now (its throttle counted, its slot taken), else why not. */
    async admit(ticket: FlowTicket): Promise<Reason | null> {
      const { cfg, event } = ticket;
      // The slot first: a firing refused for concurrency must not use up the throttle's allowance.
      if (ticket.concurrency && !(await claim(ticket))) return 'concurrency';
      const t = cfg.throttle;
      if (t && !(await store.admit(ticket.throttle!, clock.now(), t.limit, t.period_ms))) {
        if (ticket.concurrency) await store.releaseSlot(ticket.concurrency, event.id);
        return 'throttled';
      }
      return null;
    },
    /** After the calls ran: keep the slot while their work is open, else free it now. */
    async settle(ticket: FlowTicket, fired: Firing[]): Promise<void> {
      const key = ticket.concurrency;
      if (!key) return;
      const id = ticket.cfg.id;
      const quests: string[] = [];
      let waiting = false;
      for (const f of fired) {
        if (f.configured_event_id !== id) continue;
        if (f.next_attempt_at !== undefined) waiting = true;
        const quest = f.ok ? (f.result as { id?: unknown } | null)?.id : undefined;
        if (typeof quest === 'string' && quest.startsWith('qst_')) quests.push(quest);
      }
      if (quests.length === 0 && !waiting) return store.releaseSlot(key, ticket.event.id);
      await store.holdSlot(key, ticket.event.id, quests);
    },
    forget: (cfgId: string) => store.forget(flowPrefix(cfgId)),
    nextDueMs: () => store.nextDueMs(),
    takeDue: (limit: number) => store.takeDue(clock.now(), limit),
  };
}

export type FlowControl = ReturnType<typeof createFlowControl>;
