import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { CompanyRef } from './seam.js';
import { defaultEmitters, type EmitterRegistry } from './bus/emitters.js';
import { DEFAULT_MAX_DEPTH } from './bus/dispatch.js';
import type { MatcherHook } from './bus/matchers.js';
import { createMatcherEngine } from './detectors/matcher-engine.js';
import { createCauseReporter } from './detectors/cause-reporter.js';
import { memoryWindows } from './detectors/window-counter.js';
import { createBoundedRegex } from './detectors/bounded-regex.js';
import type { SchedulerTimer } from './schedules/scheduler.js';
import type { DuePolicy } from './schedules/due-ticks.js';
import { DEFAULT_POLICY } from './schedules/scheduler.js';
import type { Random } from '../random.js';
import type { Sealer } from '../store/sealer.js';
import { wireEmitters } from './emitter-wiring.js';
import { seedDefaultSchedules } from './schedules/defaults.js';
import { createEventsService } from './bus/events-service.js';
import { createToolRegistry, type ToolDefinition } from './bus/tools.js';
import { createAgentsService } from './services/agents.js';
import type { RuntimeCore } from './core.js';
import { createMessenger } from './services/messages.js';
import { createQuestsService } from './services/quests.js';
import type { EmitInput } from './company-services.js';
import type { OpenedRuntime } from './opened.js';
import { createSessionsService } from './services/sessions.js';
import { createCompaction, type CompactionOptions } from './services/compaction.js';
import { openRuntimeStorage, type RuntimeStorage } from '../store/runtime-storage.js';

export interface RuntimeOptions {
  company: CompanyRef;
  /** The Company's data folder (companyDataDir); used by file storage only. */
  dir: string;
  storage: RuntimeStorage;
  clock: Clock;
  ids: IdGenerator;
  emitters?: EmitterRegistry;
  matcher?: MatcherHook;
  /** More tools for configured events (beyond quests.create, quests.update, message_to, sessions.update). */
  tools?: ToolDefinition[];
  maxDepth?: number;
  /** Seals webhook channel secrets at rest (the daemon's sealing key). */
  sealer: Sealer;
  random: Random;
  /** The scheduler's minute timer (tests: a fake one) and missed-tick policy. */
  schedulerTimer?: SchedulerTimer;
  schedulePolicy?: Partial<DuePolicy>;
  /** The retry walker's timer (tests: a fake one that never fires; they call `retries.walk()`). */
  retryTimer?: SchedulerTimer;
  /** Compaction as delegation (the daemon's --compaction-role); unset: a crossing only fires its event. */
  compaction?: CompactionOptions;
  /** Problems worth a line in the daemon log (a failed schedule walk, a detector error). */
  onProblem?(message: string, fields: Record<string, unknown>): void;
}

export type { OpenedRuntime, OpenedServices } from './opened.js';

/** Opens one Company's runtime: its stores, its event log, and the services over them. */
export async function openCompanyRuntime(options: RuntimeOptions): Promise<OpenedRuntime> {
  const opened = await openRuntimeStorage(options.storage, options.company.id, options.dir, options.clock);
  const { stores, log } = opened;
  const problem = options.onProblem ?? (() => {});
  const company_id = options.company.id;
  // Per Company: window counts and cooldowns never leak from one Company to another.
  // Matchers and guardrails run on the linear-time engine: no time-out, so never a silent "no match".
  const regex = createBoundedRegex();
  // Team mode counts windows in the database (every daemon into the same rows); else in memory.
  const windows = stores.windows ?? memoryWindows();
  const matcher = options.matcher ?? createMatcherEngine({ clock: options.clock, regex, windows });
  // The one recursion of a runtime is the causation chain: a service emits an event, the event's
  // tool call runs a service, which emits the next one. So every piece is built after what it
  // uses, and `emit` (the core's and the cause reporter's) forwards to the events service built last.
  const emit = (input: EmitInput) => events.emit(input);
  const causes = createCauseReporter({ clock: options.clock, events: { emit }, regex, windows });
  const core: RuntimeCore = {
    company: options.company,
    clock: options.clock,
    ids: options.ids,
    stores,
    emit,
    causes,
    onDetectorError: (err) => problem('detector failed', { company_id, err: String((err as Error)?.message ?? err) }),
  };
  const sessions = createSessionsService(core);
  const messageTo = createMessenger(core, sessions);
  core.compaction = createCompaction(core, options.compaction ?? {}, {
    messageTo,
    onProblem: (message, fields) => problem(message, { company_id, ...fields }),
  });
  const base = {
    company: options.company,
    agents: createAgentsService(core),
    sessions,
    quests: createQuestsService(core),
    messageTo,
  };
  const events = createEventsService({
    core,
    log,
    emitters: options.emitters ?? defaultEmitters,
    matcher,
    tools: createToolRegistry(options.tools),
    services: base,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    random: options.random,
    retryTimer: options.retryTimer,
    schedulePolicy: { ...DEFAULT_POLICY, ...options.schedulePolicy },
    onRetryError: (err) => problem('retry walk failed', { company_id, err: String((err as Error)?.message ?? err) }),
    onProblem: (message, fields) => problem(message, { company_id, ...fields }),
    // Team mode: events appended through another daemon wake this one's followers (SSE, long-polls).
    watch: opened.watch,
    flow: stores.flow,
    // A dry run counts windows of its own, on the clock of the events it replays.
    freshMatcher: (clock) => options.matcher ?? createMatcherEngine({ clock, regex, windows: memoryWindows() }),
  });
  const services: OpenedRuntime['services'] = { ...base, events };

  const emitters = wireEmitters({
    core,
    budget: events.budget,
    services,
    stores,
    clock: options.clock,
    ids: options.ids,
    sealer: options.sealer,
    random: options.random,
    schedulePolicy: options.schedulePolicy,
    timer: options.schedulerTimer,
    onError: problem,
  });

  emitters.scheduler.start();
  events.retries.start();
  events.debounces.start();
  return {
    services,
    core,
    causes,
    channels: emitters.channels,
    scheduler: emitters.scheduler,
    retries: events.retries,
    debounces: events.debounces,
    questions: emitters.questions,
    seedDefaults: async () => void (await seedDefaultSchedules(events)),
    recovery: opened.recovery,
    storeNotes: opened.notes,
    async close() {
      await emitters.scheduler.stop();
      await events.retries.stop();
      await events.close();
      await stores.flush();
      await log.close();
      await stores.close();
    },
  };
}
