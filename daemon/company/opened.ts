import type { Router } from '@koa/router';
import type { CompanyRuntime } from './seam.js';
import type { QuestionDesk } from './detectors/questions.js';
import type { Scheduler } from './schedules/scheduler.js';
import type { RetryWalker } from './bus/retry/walker.js';
import type { CompanyServices, EventsService } from './company-services.js';

/**
 * The shapes of an opened Company runtime, apart from the code that opens it (open-company.ts):
 * the routes and the emitters are handed these, and importing the opener from them would make a cycle.
 */
export type OpenedServices = Required<CompanyServices> & {
  sessions: Required<CompanyServices['sessions']>;
  events: Required<EventsService>;
};

export interface OpenedRuntime extends CompanyRuntime {
  services: OpenedServices;
  /** Every route this runtime serves (`handle` dispatches through it; the robustness sweep and the fuzz list it). */
  router: Router;
  /** The minute scheduler (tests walk it by hand) and the question desk. */
  scheduler: Scheduler;
  questions: QuestionDesk;
  /** The due-retry walker (tests walk it by hand after moving the fake clock). */
  retries: RetryWalker;
  close(): Promise<void>;
  /** Problems the event log met while opening (for the daemon log). */
  recovery: string[];
  /** What opening the stores did worth a line in the daemon log (journal recovery, an upgrade import). */
  storeNotes: string[];
}
