import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { CompanyRef } from './seam.js';
import type { CompactAnswer, EmitInput, Emitted, Quest } from './company-services.js';

/** What starting a compaction answers, before the session is added to it (sessions.compact). */
export type CompactStart = Omit<CompactAnswer, 'session'>;
import type { RuntimeStores } from '../store/runtime-types.js';
import type { CauseReporter } from './detectors/cause-reporter.js';
import { missing } from '../domain-error.js';
import { ErrorCode } from '../../shared/errors.js';

/** What the runtime's pieces share: the Company, time, ids, the stores, and `emit` (the events bus). */
export interface RuntimeCore {
  company: CompanyRef;
  clock: Clock;
  ids: IdGenerator;
  stores: RuntimeStores;
  emit(input: EmitInput): Promise<Emitted>;
  /** The detectors' cause reporter; the runtime reports agent output, tool calls and finished quests where they happen. */
  causes?: CauseReporter;
  onDetectorError?(err: unknown): void;
  /** Compaction as delegation (services/compaction.ts); set once the services exist. */
  compaction?: CompactionHooks;
}

/** What the sessions and quests services call at the steps of compaction as delegation. */
export interface CompactionHooks {
  /** The daemon's compaction role; null: a crossing only fires its event. */
  role: string | null;
  /** A session crossed its context budget (`eventId`: its `context:budget:exceeded`). Never throws. */
  crossed(sessionId: string, eventId: string): Promise<void>;
  /** A quest reached done or failed: when it is a compaction quest, its session continues from it (or not). Never throws. */
  questFinished(quest: Quest, caused_by: string | null | undefined): Promise<void>;
  /** Ends a pending compaction whose quest ended while the session missed it (a crash between the two). Never throws. */
  settle(sessionId: string): Promise<void>;
  /** Starts one by hand (role: default the daemon's); answers the pending one when there is one. */
  start(sessionId: string, role: string | undefined, caused_by: string | null | undefined): Promise<CompactStart>;
}

/**
 * Reports a cause to the detectors without letting a detector's failure undo the change that
 * caused it: the message is stored, the quest is done; a detector that breaks is only logged.
 */
export async function reportCause(
  core: RuntimeCore,
  report: (causes: CauseReporter) => Promise<unknown>,
): Promise<void> {
  if (!core.causes) return;
  try {
    await report(core.causes);
  } catch (err) {
    core.onDetectorError?.(err);
  }
}

export const nowIso = (core: RuntimeCore) => new Date(core.clock.now()).toISOString();

const MISSING_CODES = {
  agent: ErrorCode.agentNotFound,
  session: ErrorCode.sessionNotFound,
  quest: ErrorCode.questNotFound,
} as const;

/**
 * The one "not found" answer for a runtime record, whoever asks (the services, the REST routes,
 * the MCP tools): same sentence, same code.
 */
export function orMissing<T>(value: T | undefined | null, kind: keyof typeof MISSING_CODES, id: string): T {
  if (value == null) throw missing(`No ${kind} ${id} in this Company.`, MISSING_CODES[kind]);
  return value;
}

export const requireAgent = async (core: RuntimeCore, id: string) =>
  orMissing(await core.stores.agents.get(id), 'agent', id);
export const requireSession = async (core: RuntimeCore, id: string) =>
  orMissing(await core.stores.sessions.get(id), 'session', id);
export const requireQuest = async (core: RuntimeCore, id: string) =>
  orMissing(await core.stores.quests.get(id), 'quest', id);

/** Copies a stored record (frozen) for the caller, who may change its copy. */
export const copy = <T>(value: T): T => structuredClone(value);
