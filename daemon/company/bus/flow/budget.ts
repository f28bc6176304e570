import * as z from 'zod';
import { isoAt, type Clock } from '../../../clock.js';
import type { IdGenerator } from '../../../ids.js';
import { parseInput } from '../../../domain-error.js';
import type { ConfiguredEvent, EmitInput, Emitted, EventRow, NotFired } from '../../company-services.js';
import type { FlowStore } from '../../../store/flow-types.js';
import type { QuestionStore, SettingsStore } from '../../../store/runtime-types.js';

/** Caps on what one causal chain (one correlation id) may set off within a window. */
export interface ChainBudget {
  max_firings: number | null;
  max_tool_calls: number | null;
  within_ms: number;
}

const cap = z.number().int().min(1, 'must be at least 1, or null for no cap').max(1_000_000).nullable();
export const budgetSchema = z
  .object({
    max_firings: cap,
    max_tool_calls: cap,
    within_ms: z
      .number()
      .int()
      .min(1000, 'must be at least 1000 (1 s)')
      .max(7 * 86_400_000, 'must be at most 604800000 (7 days)'),
  })
  .strict();

const SETTING = 'chain_budget';
/** Answers a budget question takes: the chain goes on with a fresh budget, or stays stopped. */
export const BUDGET_ANSWERS = ['continue', 'end'] as const;

export interface BudgetDeps {
  store: FlowStore;
  settings: SettingsStore;
  questions: QuestionStore;
  clock: Clock;
  ids: IdGenerator;
  emit(input: EmitInput): Promise<Emitted>;
}

const keyOf = (chain: string, what: 'f' | 't' | 'stop') => `budget|${chain}|${what}`;

/**
 * The chain budget of a Company. A chain that would cross it is stopped: everything it would fire
 * from then on is `not_fired` with reason `budget`. The first daemon to stop it (a slot of one)
 * emits `loop:detected` with the chain in its content and asks the owner a question; `continue`
 * gives the chain a fresh budget, `end` leaves it stopped.
 */
export function createChainBudget(deps: BudgetDeps) {
  const { store, clock } = deps;

  const stop = async (chain: string, event: EventRow, budget: ChainBudget) => {
    // One stop per chain, whichever daemon crossed first: the slot of one is the claim.
    if (!(await store.claimSlot(keyOf(chain, 'stop'), event.id, 1, clock.now()))) return;
    const question_id = deps.ids('qn');
    const text = `The chain ${chain} crossed the Company's event budget (${describe(budget)}) at ${event.type} (${event.id}) and was stopped. Continue it with a fresh budget, or end it?`;
    const scope = { agent_id: event.agent_id, session_id: event.session_id, quest_id: event.quest_id };
    const asked = await deps.emit({
      type: 'question:asked',
      ...scope,
      content: { question_id, question: text, options: [...BUDGET_ANSWERS], chain, event_id: event.id },
      source: 'emitter',
    });
    await deps.questions.add({
      id: question_id,
      agent_id: event.agent_id ?? '',
      session_id: event.session_id,
      quest_id: event.quest_id,
      question: text,
      options: [...BUDGET_ANSWERS],
      asked_event_id: asked.event.id,
      status: 'open',
      answer: null,
      answered_by: null,
      created_at: isoAt(clock.now()),
      answered_at: null,
      chain,
    });
    // Not caused by the chain's event: it would be stopped with it, and nothing could react.
    await deps.emit({
      type: 'loop:detected',
      ...scope,
      content: { kind: 'budget', chain, event_id: event.id, budget, question_id },
      source: 'emitter',
    });
  };

  return {
    async get(): Promise<ChainBudget | null> {
      return ((await deps.settings.get(SETTING)) as ChainBudget | undefined) ?? null;
    },
    async set(input: unknown): Promise<ChainBudget | null> {
      const budget = parseInput(budgetSchema, input);
      const value = budget.max_firings === null && budget.max_tool_calls === null ? null : budget;
      await deps.settings.put(SETTING, value);
      return value;
    },
    /** Splits what would fire into what the chain's budget allows and what it stops. */
    async check(event: EventRow, fire: ConfiguredEvent[]): Promise<{ now: ConfiguredEvent[]; notFired: NotFired[] }> {
      if (fire.length === 0) return { now: fire, notFired: [] };
      const budget = await this.get();
      if (!budget) return { now: fire, notFired: [] };
      const chain = event.correlation_id ?? event.id;
      const stopped = (await store.slots(keyOf(chain, 'stop'))).length > 0;
      const now: ConfiguredEvent[] = [];
      const notFired: NotFired[] = [];
      let crossed = stopped;
      for (const cfg of fire) {
        const at = clock.now();
        let ok = !crossed;
        if (ok && budget.max_firings !== null)
          ok = await store.admit(keyOf(chain, 'f'), at, budget.max_firings, budget.within_ms);
        for (let i = 0; ok && budget.max_tool_calls !== null && i < cfg.tool_calls.length; i++)
          ok = await store.admit(keyOf(chain, 't'), at, budget.max_tool_calls, budget.within_ms);
        if (ok) now.push(cfg);
        else {
          crossed = true;
          if (cfg.tool_calls.length > 0) notFired.push({ configured_event_id: cfg.id, reason: 'budget' });
        }
      }
      if (crossed && !stopped) await stop(chain, event, budget);
      return { now, notFired };
    },
    /** The owner answered `continue`: the chain gets a fresh budget (the caller then runs what was stopped). */
    resume: (chain: string) => store.forget(`budget|${chain}|`),
  };
}

const describe = (b: ChainBudget) =>
  [b.max_firings !== null && `${b.max_firings} firings`, b.max_tool_calls !== null && `${b.max_tool_calls} tool calls`]
    .filter(Boolean)
    .join(', ') + ` within ${b.within_ms} ms`;

export type ChainBudgetService = ReturnType<typeof createChainBudget>;
