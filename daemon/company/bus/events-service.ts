import { ErrorCode } from '../../../shared/errors.js';
import { missing, parseInput } from '../../domain-error.js';
import type { RuntimeCore } from '../core.js';
import type { EmitInput, Emitted, EventRow, EventsService } from '../company-services.js';
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
import { createGatedDispatch } from './flow/gated-dispatch.js';
import { createLiveListeners } from './live-listeners.js';
import { createDebounceWalker, type DebounceWalker } from './flow/debounce-walker.js';
import { createChainBudget, type ChainBudgetService } from './flow/budget.js';
import { createReplayer, type Replayer } from './replay.js';
import { createPreview, type PreviewAnswer } from './preview.js';
import { backfillSchedule, type BackfillAnswer } from '../schedules/backfill.js';
import type { Clock } from '../../clock.js';
import { failedForGood, failureOf } from './failures.js';
import { emitSchema, filterSchema, fireSchema } from './events-input.js';
import { currentCall, noteEmitted } from '../../call-origin.js';

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
  const gated = createGatedDispatch({
    flow,
    budget,
    dispatch: dispatcher.dispatch,
    recordNotFired: (eventId, notFired) => core.stores.firings.add(eventId, [], notFired),
    onDeferred: (dueMs) => debounces.wake(dueMs),
  });
  const debounces = createDebounceWalker({
    clock: core.clock,
    flow,
    timer: deps.retryTimer ?? realTimer,
    events: log,
    configured: core.stores.configured,
    fire: gated.fireDebounced,
    skip: (cfg, event) => core.stores.firings.add(event.id, [], [{ configured_event_id: cfg.id, reason: 'paused' }]),
    onError: deps.onRetryError,
  });
  const once = createIdempotentRunner(core.stores.idempotency, () => core.clock.now(), { onProblem: deps.onProblem });
  const live = createLiveListeners({ log, watch: deps.watch });

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
    live.tell(row);
    return row;
  };

  const emitNow = async (input: EmitInput): Promise<Emitted> => {
    const body = parseInput(emitSchema, input);
    const type = checkPattern(body.type);
    // The configured events of the type are read beside the append, not after it: on a database
    // that takes one round trip off every emit (what was configured before the call is seen either way).
    const [event, ofType] = await Promise.all([append({ ...body, type }), configured.ofType(type)]);
    const { fire, notFired } = await considerConfigured(event, ofType, deps);
    const { fired, not_fired } = await gated.dispatch(event, fire, notFired);
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
        await gated.dispatch(stopped, fire);
      },
    },
    wakeListeners: live.wake,
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
        : await gated.dispatch(event, [cfg]);
      return { event, fired, not_fired };
    },
    once: (scope, key, request, run) => once(scope, key, request, run),
    close: async () => {
      await debounces.stop();
      await once.close();
    },
    trace: (eventId) => buildTrace(log, core.stores.firings, eventId),
    releaseWaiters: live.releaseWaiters,
    onRelease: live.onRelease,
    subscribe: live.subscribe,
  };
  return service;
}
