import type { Clock } from '../../../clock.js';
import type { ConfiguredEvent, EventRow, Firing, NotFired } from '../../company-services.js';
import type { FlowStore } from '../../../store/flow-types.js';
import type { QuestStore, RetryStore } from '../../../store/runtime-types.js';
import { resolveReferences } from '../references.js';

/** A slot whose firing never reported back (its daemon stopped mid-dispatch) is free again after this. */
const SLOT_LEASE_MS = 10 * 60_000;
const ENDED = new Set(['done', 'failed']);

type Reason = Extract<NotFired['reason'], 'throttled' | 'concurrency'>;

/** The bucket an event falls in: its key template resolved, or one bucket for the rule. */
export function bucketOf(template: string | null | undefined, event: EventRow): string {
  if (!template) return '*';
  return `=${resolveReferences(template, event)}`.slice(0, 500);
}

/** The state keys of a rule: `<cfg id>#` first, so forgetting a rule is one prefix. */
export const flowPrefix = (cfgId: string) => `${cfgId}#`;
const keyOf = (cfgId: string, kind: 'd' | 't' | 'c', bucket: string) => `${flowPrefix(cfgId)}${kind}|${bucket}`;

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

  const claim = async (cfg: ConfiguredEvent, event: EventRow): Promise<boolean> => {
    const c = cfg.concurrency!;
    const key = keyOf(cfg.id, 'c', bucketOf(c.key, event));
    if (await store.claimSlot(key, event.id, c.limit, clock.now())) return true;
    // Full: free the slots whose work has ended since, then ask once more.
    const slots = await store.slots(key);
    const open = await Promise.all(slots.map((s) => stillOpen(key, cfg.id, s)));
    if (open.every(Boolean)) return false;
    return store.claimSlot(key, event.id, c.limit, clock.now());
  };

  return {
    /** A debounced rule: records the event as its burst's latest; answers the event it replaced (not fired). */
    async defer(cfg: ConfiguredEvent, event: EventRow): Promise<{ replaced: string | null; due_ms: number | null }> {
      const d = cfg.debounce!;
      const key = keyOf(cfg.id, 'd', bucketOf(d.key, event));
      const { replaced } = await store.debounce(
        { key, configured_event_id: cfg.id, event_id: event.id },
        clock.now(),
        d.period_ms,
        d.max_wait_ms ?? null,
      );
      return { replaced, due_ms: await store.nextDueMs() };
    },
    /** Null when the rule may fire now (its throttle counted, its slot taken), else why not. */
    async admit(cfg: ConfiguredEvent, event: EventRow): Promise<Reason | null> {
      // The slot first: a firing refused for concurrency must not use up the throttle's allowance.
      if (cfg.concurrency && !(await claim(cfg, event))) return 'concurrency';
      const t = cfg.throttle;
      if (t && !(await store.admit(keyOf(cfg.id, 't', bucketOf(t.key, event)), clock.now(), t.limit, t.period_ms))) {
        if (cfg.concurrency)
          await store.releaseSlot(keyOf(cfg.id, 'c', bucketOf(cfg.concurrency.key, event)), event.id);
        return 'throttled';
      }
      return null;
    },
    /** After the calls ran: keep the slot while their work is open, else free it now. */
    async settle(cfg: ConfiguredEvent, event: EventRow, fired: Firing[]): Promise<void> {
      if (!cfg.concurrency) return;
      const key = keyOf(cfg.id, 'c', bucketOf(cfg.concurrency.key, event));
      const mine = fired.filter((f) => f.configured_event_id === cfg.id);
      const quests = mine.flatMap((f) => {
        const id = f.ok ? (f.result as { id?: unknown } | null)?.id : undefined;
        return typeof id === 'string' && id.startsWith('qst_') ? [id] : [];
      });
      const waiting = mine.some((f) => f.next_attempt_at !== undefined);
      if (quests.length === 0 && !waiting) return store.releaseSlot(key, event.id);
      await store.holdSlot(key, event.id, quests);
    },
    forget: (cfgId: string) => store.forget(flowPrefix(cfgId)),
    nextDueMs: () => store.nextDueMs(),
    takeDue: (limit: number) => store.takeDue(clock.now(), limit),
  };
}

export type FlowControl = ReturnType<typeof createFlowControl>;
