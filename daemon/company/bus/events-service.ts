import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import { boundedJson } from '../../http/json-depth.js';
import { missing, parseInput } from '../../domain-error.js';
import type { RuntimeCore } from '../core.js';
import { storableText } from '../../../shared/schemas/storable-text.js';
import {
  EVENT_SOURCES,
  type ConfiguredEvent,
  type EmitInput,
  type Emitted,
  type EventRow,
  type EventsService,
  type NotFired,
} from '../company-services.js';
import { checkPattern, createConfiguredEvents } from './configured.js';
import { considerConfigured } from './considered.js';
import { createDispatcher } from './dispatch.js';
import { whyArmed, type EmitterRegistry } from './emitters.js';
import { createIdempotentRunner } from './idempotency.js';
import type { EventLog } from '../../store/event-log/types.js';
import type { MatcherHook } from './matchers.js';
import { buildTrace } from './trace.js';
import type { ToolRegistry, ToolServices } from './tools.js';
import type { Random } from '../../random.js';
import type { DuePolicy } from '../schedules/due-ticks.js';
import { realTimer, type SchedulerTimer } from '../schedules/minute-loop.js';
import { createRetryWalker, type RetryWalker } from './retry/walker.js';
import type { FlowStore } from '../../store/flow-types.js';
import { memoryFlow } from '../../store/runtime/flow-memory.js';
import { createFlowControl } from './flow/flow-control.js';
import { gateFlow } from './flow/flow-gate.js';
import { createDebounceWalker, type DebounceWalker } from './flow/debounce-walker.js';
import { createChainBudget, type ChainBudgetService } from './flow/budget.js';
import { createReplayer, type Replayer } from './replay.js';
import { createPreview, type PreviewAnswer } from './preview.js';
import { backfillSchedule, type BackfillAnswer } from '../schedules/backfill.js';
import type { Clock } from '../../clock.js';
import { failedForGood, failureOf } from './failures.js';
import { currentCall, noteEmitted } from '../../call-origin.js';

// Ids and types are compared with the event log's columns, so they are checked as stored text
// here, where REST and MCP callers meet, with the log's own check (checkInput) behind it.
const key = z.string().min(1).max(200).check(storableText);
const idField = key.nullable().optional();
const emitSchema = z.object({
  type: key,
  agent_id: idField,
  session_id: idField,
  quest_id: idField,
  content: boundedJson.optional(),
  caused_by: idField,
  source: z.enum(EVENT_SOURCES).optional(),
});

const fireSchema = z.object({ content: boundedJson.optional(), source: z.enum(EVENT_SOURCES).optional() });

/** The same checks GET /api/events makes, for callers that are not HTTP (MCP tools). */
const filterSchema = z.object({
  event_type: key.optional(),
  agent_id: key.optional(),
  session_id: key.optional(),
  quest_id: key.optional(),
  since: z.iso
    .datetime({ offset: true, message: 'since must be an ISO 8601 timestamp, e.g. 2026-01-15T12:00:00Z' })
    .optional(),
  since_id: z.string().min(1).max(200).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
});

export interface EventsServiceDeps {
  core: RuntimeCore;
  log: EventLog;
  emitters: EmitterRegistry;
  matcher: MatcherHook;
  tools: ToolRegistry;
  /** What configured events' tool calls act on: every service but this one. */
  services: ToolServices;
  maxDepth: number;
  /** Retry jitter, the retry walker's timer (tests: a fake one) and the daemon's missed-tick policy. */
  random: Random;
  retryTimer?: SchedulerTimer;
  schedulePolicy: Pick<DuePolicy, 'missed' | 'maxCatchUp'>;
  onRetryError?(err: unknown): void;
  /** Answers of keyed requests the store refused, or gave up on (idempotency.ts). */
  onProblem?(message: string, fields: Record<string, unknown>): void;
  /** A matcher with fresh state on `clock`, for a dry run (default: the live matcher, which then must keep no state). */
  freshMatcher?(clock: Clock): MatcherHook;
  /** Where flow control decides (team mode: the database); default this daemon's memory. */
  flow?: FlowStore;
  /** Team mode: hears other daemons' appends to this log (runtime-storage.ts); returns an unwatch. */
  watch?: (wake: (lastId: string) => void) => () => void;
}

export type LocalEventsService = Required<EventsService> & {
  /** The walker that runs due retries of failed tool calls. */
  retries: RetryWalker;
  /** The walker that fires debounced rules once their quiet has come. */
  debounces: DebounceWalker;
  /** Runs a schedule's past ticks in a range (schedules/backfill.ts). */
  backfill(id: string, input: unknown): Promise<BackfillAnswer>;
  /** A dry run of a rule over the stored log (bus/preview.ts). */
  preview(input: unknown): Promise<PreviewAnswer>;
  /** Failures kept for replay: the list and the replay. */
  failures: Replayer;
  /** The chain budget: a Company setting, checked on every dispatch that would fire something. */
  budget: ChainBudgetService & {
    answered(chain: string, answer: string, askedEventId: string | null): Promise<void>;
  };
  /**
   * Team mode: another daemon appended to this log (its NOTIFY named `lastId`). Wakes the live
   * listeners (SSE, long-polls), which page on from their own cursors. Dispatch is not run here:
   * the appending daemon ran it, so it runs once per event in the deployment.
   */
  wakeListeners(lastId: string): void;
  /** Closing: answers of keyed requests the store refused get one last try (idempotency.ts). */
  close(): Promise<void>;
};

/** The events bus of one Company: the log, configured events, dispatch, trace and live listeners. */
export function createEventsService(deps: EventsServiceDeps): LocalEventsService {
  const { core, log } = deps;
  const flowStore = deps.flow ?? memoryFlow();
  const flow = createFlowControl({
    store: flowStore,
    clock: core.clock,
    quests: core.stores.quests,
    retries: core.stores.retries,
  });
  const configured = createConfiguredEvents({ ...deps, flow });
  const dispatcher = createDispatcher({ ...deps, onRetryScheduled: (dueMs) => retries.wake(dueMs) });
  const retries = createRetryWalker({
    clock: core.clock,
    random: deps.random,
    retries: core.stores.retries,
    // A retry that ends failed (or interrupted) is kept for the failures list, like a first run that failed.
    firings: {
      async add(eventId, fired, notFired, change) {
        await core.stores.firings.add(eventId, fired, notFired, change);
        for (const f of fired) {
          if (!failedForGood(f) || f.call_index === undefined) continue;
          const call = (await core.stores.configured.get(f.configured_event_id))?.tool_calls[f.call_index];
          if (call) await core.stores.failures.add(failureOf(eventId, f.call_index, call, f, core.clock.now()));
        }
      },
    },
    configured: core.stores.configured,
    events: log,
    runCall: dispatcher.runCall,
    timer: deps.retryTimer ?? realTimer,
    onError: deps.onRetryError,
  });
  const budget = createChainBudget({
    store: flowStore,
    settings: core.stores.settings,
    questions: core.stores.questions,
    clock: core.clock,
    ids: core.ids,
    emit: (input) => core.emit(input),
  });
  const gate = {
    flow,
    recordNotFired: (eventId: string, notFired: NotFired[]) => core.stores.firings.add(eventId, [], notFired),
    onDeferred: (dueMs: number | null) => debounces.wake(dueMs),
  };
  /** Runs what flow control lets through now, records the rest, and settles concurrency slots after. */
  const dispatchGated = async (event: EventRow, fire: ConfiguredEvent[], notFired: NotFired[] = []) => {
    const gated = await gateFlow(gate, fire, event);
    const budgeted = await budget.check(event, gated.now);
    const result = await dispatcher.dispatch(event, budgeted.now, [
      ...notFired,
      ...gated.notFired,
      ...budgeted.notFired,
    ]);
    if (gated.notFired.length > 0 || gated.now !== fire)
      await Promise.all(gated.now.map((cfg) => flow.settle(cfg, event, result.fired)));
    return result;
  };
  const debounces = createDebounceWalker({
    clock: core.clock,
    flow,
    timer: deps.retryTimer ?? realTimer,
    events: log,
    configured: core.stores.configured,
    async fire(cfg, event) {
      const why = await flow.admit(cfg, event);
      if (why) return void (await dispatcher.dispatch(event, [], [{ configured_event_id: cfg.id, reason: why }]));
      const budgeted = await budget.check(event, [cfg]);
      const result = await dispatcher.dispatch(event, budgeted.now, budgeted.notFired);
      await flow.settle(cfg, event, result.fired);
    },
    skip: (cfg, event) => core.stores.firings.add(event.id, [], [{ configured_event_id: cfg.id, reason: 'paused' }]),
    onError: deps.onRetryError,
  });
  const once = createIdempotentRunner(core.stores.idempotency, () => core.clock.now(), { onProblem: deps.onProblem });
  const listeners = new Set<(event: EventRow) => void>();
  let unwatch: (() => void) | undefined;
  const releasers = new Set<() => void>();
  let released = false;

  const append = async (input: EmitInput): Promise<EventRow> => {
    const parent = input.caused_by ? await log.get(input.caused_by) : undefined;
    if (input.caused_by && !parent)
      throw missing(`No event ${input.caused_by} to be caused by.`, ErrorCode.eventNotFound);
    // The call under way (an MCP tools/call, a keyed REST call) is the origin; else the parent's, so
    // everything a call set off says which call it was (call-origin.ts).
    const call = currentCall();
    const origin = call?.origin() ?? parent?.origin;
    const row = await log.append({
      type: input.type,
      agent_id: input.agent_id ?? null,
      session_id: input.session_id ?? null,
      quest_id: input.quest_id ?? null,
      content: input.content ?? null,
      causation_id: parent?.id ?? null,
      // Everything a root cause sets off shares its correlation id (trace and queries group by it).
      correlation_id: parent?.correlation_id ?? null,
      source: input.source ?? (parent ? 'tool_call' : 'emitter'),
      ...(origin ? { origin } : {}),
    });
    if (call) noteEmitted(call, row.id, parent !== undefined && call.emitted.includes(parent.id));
    tell(row);
    return row;
  };
  const tell = (row: EventRow) => {
    for (const listener of listeners) {
      try {
        listener(row);
      } catch {
        // A listener's failure is its own: the event is on disk and dispatch goes on.
      }
    }
  };

  const emitNow = async (input: EmitInput): Promise<Emitted> => {
    const body = parseInput(emitSchema, input);
    const type = checkPattern(body.type);
    // The configured events of the type are read beside the append, not after it: on a database
    // that takes one round trip off every emit (what was configured before the call is seen either way).
    const [event, ofType] = await Promise.all([append({ ...body, type }), configured.ofType(type)]);
    const { fire, notFired } = await considerConfigured(event, ofType, deps);
    const { fired, not_fired } = await dispatchGated(event, fire, notFired);
    return { event, fired, not_fired } satisfies Emitted;
  };

  const failures = createReplayer({
    clock: core.clock,
    failures: core.stores.failures,
    firings: core.stores.firings,
    events: log,
    append: (input) => append(parseInput(emitSchema, input)),
    runCall: dispatcher.runCall,
  });

  const preview = createPreview({
    log,
    emitters: deps.emitters,
    quests: core.stores.quests,
    retries: core.stores.retries,
    freshMatcher: deps.freshMatcher ?? (() => deps.matcher),
    build: (input) => configured.build(input),
  });

  const service: LocalEventsService = {
    retries,
    preview,
    backfill: (id, input) =>
      backfillSchedule({ events: service, retries: core.stores.retries, nowMs: core.clock.now() }, id, input),
    failures,
    debounces,
    budget: {
      ...budget,
      /**
       * The owner answered a budget question: `continue` gives the chain a fresh budget and runs what
       * the stopped event would have fired; `end` leaves the chain stopped.
       */
      async answered(chain: string, answer: string, askedEventId: string | null) {
        if (answer !== 'continue') return;
        await budget.resume(chain);
        const asked = askedEventId ? await log.get(askedEventId) : undefined;
        const stoppedId = (asked?.content as { event_id?: unknown } | null)?.event_id;
        const stopped = typeof stoppedId === 'string' ? await log.get(stoppedId) : undefined;
        if (!stopped) return;
        const { fire } = await considerConfigured(stopped, await configured.ofType(stopped.type), deps);
        await dispatchGated(stopped, fire);
      },
    },
    wakeListeners(lastId) {
      if (listeners.size === 0) return;
      // Listeners only use the event as a wake-up (they re-page from their cursor); the head row is
      // read so their signature stays the one local appends use.
      log.get(lastId).then(
        (row) => row && tell(row),
        () => {},
      );
    },
    create: (input) => configured.create(input),
    get: (id) => configured.get(id),
    listConfigured: (filter) => configured.list(filter),
    setEnabled: (id, enabled) => configured.setEnabled(id, enabled),
    update: (id, change) => configured.update(id, change),
    delete: (id) => configured.delete(id),
    list: async (filter = {}) => log.query(parseInput(filterSchema, filter)),
    occurrence: (id) => log.get(id),
    lastId: () => log.lastId(),
    async emit(input) {
      const { idempotency_key: key, ...request } = input;
      if (key === undefined || key === null) return emitNow(request);
      // The trigger route's contract for every emitter (CONTRACT §8): a repeat within the window
      // answers the first answer and appends nothing, so an emitter retrying after a time-out is safe.
      const { answer, replayed } = await once('emit', key, request, () => emitNow(request));
      return replayed ? { ...answer, replayed: true } : answer;
    },
    async fire(configuredId, options = {}) {
      const cfg = await configured.get(configuredId);
      if (!cfg) throw missing(`No configured event ${configuredId} in this Company.`, ErrorCode.eventNotFound);
      parseInput(fireSchema, { content: options.content, source: options.source });
      const event = await append({
        type: cfg.type,
        agent_id: cfg.agent_id,
        session_id: cfg.session_id,
        quest_id: cfg.quest_id,
        content: options.content ?? { fired_configured_event: cfg.id },
        caused_by: options.caused_by,
        source: options.source ?? (options.caused_by ? 'tool_call' : 'manual'),
      });
      // Firing by id runs this one configured event even when paused (the caller named it: how a
      // rule is tried before it is enabled) — but never when armed: nothing emits it (spec §3.5).
      const armed = whyArmed(deps.emitters, cfg.type) !== null;
      const skipped = armed ? 'armed' : options.skip;
      const { fired, not_fired } = skipped
        ? await dispatcher.dispatch(event, [], [{ configured_event_id: cfg.id, reason: skipped }])
        : await dispatchGated(event, [cfg]);
      return { event, fired, not_fired };
    },
    once: (scope, key, request, run) => once(scope, key, request, run),
    close: async () => {
      await debounces.stop();
      await once.close();
    },
    trace: (eventId) => buildTrace(log, core.stores.firings, eventId),
    releaseWaiters() {
      released = true;
      for (const fn of [...releasers]) fn();
      releasers.clear();
    },
    onRelease(fn) {
      if (released) {
        queueMicrotask(fn);
        return () => {};
      }
      releasers.add(fn);
      return () => void releasers.delete(fn);
    },
    subscribe(listener) {
      listeners.add(listener);
      // Team mode: other daemons' appends are heard only while something here follows the log,
      // so a daemon nobody follows spends nothing on them (event-notifier.ts).
      if (listeners.size === 1) unwatch ??= deps.watch?.((lastId) => service.wakeListeners(lastId));
      return () => {
        if (listeners.delete(listener) && listeners.size === 0) unwatch?.(), (unwatch = undefined);
      };
    },
  };
  return service;
}
