import type { CompanyRuntime } from './seam.js';
import type { QuestionDesk } from './detectors/questions.js';
import type { Scheduler } from './schedules/scheduler.js';
import type { RetryWalker } from './bus/retry/walker.js';
import type { DebounceWalker } from './bus/flow/debounce-walker.js';
import type { ChainBudgetService } from './bus/flow/budget.js';
import type { Replayer } from './bus/replay.js';
import type { PreviewAnswer } from './bus/preview.js';
import type { BackfillAnswer } from './schedules/backfill.js';
import type { RuntimeCore } from './core.js';
import type { CauseReporter } from './detectors/cause-reporter.js';
import type { Clock } from '../clock.js';
import type { Random } from '../random.js';
import type { ChannelStore } from '../store/types.js';
import type { Sealer } from '../store/sealer.js';
import type { DeliveryDedup } from './channels/delivery-dedup.js';
import type { CompanyServices, EventsService } from './company-services.js';

/**
 * The shapes of an opened Company runtime, apart from the code that opens it (open-company.ts):
 * the routes and the emitters are handed these, and importing the opener from them would make a cycle.
 */
export type OpenedServices = Required<CompanyServices> & {
  sessions: Required<CompanyServices['sessions']>;
  /** With the chain budget (GET|PUT /api/events/budget). */
  events: Required<EventsService> & {
    failures: Replayer;
    preview(input: unknown): Promise<PreviewAnswer>;
    backfill(id: string, input: unknown): Promise<BackfillAnswer>;
    budget: ChainBudgetService & {
      answered(chain: string, answer: string, askedEventId: string | null): Promise<void>;
    };
  };
};

export interface OpenedRuntime extends CompanyRuntime {
  services: OpenedServices;
  /** What the Company's routes read besides the services (routes/opened-of.ts): the shared core, the detectors' cause reporter, the channels. */
  core: RuntimeCore;
  causes: CauseReporter;
  channels: ChannelDesk;
  /** The minute scheduler (tests walk it by hand) and the question desk. */
  scheduler: Scheduler;
  questions: QuestionDesk;
  /** The due-retry walker (tests walk it by hand after moving the fake clock). */
  retries: RetryWalker;
  /** The debounce walker (tests walk it by hand after moving the fake clock). */
  debounces: DebounceWalker;
  close(): Promise<void>;
  /** Problems the event log met while opening (for the daemon log). */
  recovery: string[];
  /** What opening the stores did worth a line in the daemon log (journal recovery, an upgrade import). */
  storeNotes: string[];
}

/** What one Company's channel routes and webhook deliveries work with: its channels, their sealed secrets, and the services a delivery reaches. */
export interface ChannelDesk {
  channels: ChannelStore;
  sealer: Sealer;
  random: Random;
  clock: Clock;
  dedup: DeliveryDedup;
  services: OpenedServices;
}
