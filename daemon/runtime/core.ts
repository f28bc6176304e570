import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { CompanyRef } from '../gateway/seam.js';
import type { ConfiguredEvent, EmitInput, Emitted } from './services.js';
import type { RuntimeDocs } from './store.js';
import type { CauseReporter } from '../events/detectors/cause-reporter.js';
import { notFound } from '../http/api-error.js';
import { ErrorCode } from '../../shared/errors.js';

/** What the runtime's pieces share: the Company, time, ids, the documents, and `emit` (the events bus). */
export interface RuntimeCore {
  company: CompanyRef;
  clock: Clock;
  ids: IdGenerator;
  docs: RuntimeDocs;
  emit(input: EmitInput): Promise<Emitted>;
  /** Tells dispatch's pattern index about a configured event written straight to the document (seeded markers). */
  indexConfigured(cfg: ConfiguredEvent): void;
  /** Issue 7: the detectors' cause reporter; the runtime reports agent output, tool calls and finished quests where they happen. */
  causes?: CauseReporter;
  onDetectorError?(err: unknown): void;
}

/**
 * Reports a cause to the detectors without letting a detector's failure undo the change that
 * caused it: the message is stored, the quest is done; a detector that breaks is only logged.
 */
export async function reportCause(core: RuntimeCore, report: (causes: CauseReporter) => Promise<unknown>): Promise<void> {
  if (!core.causes) return;
  try {
    await report(core.causes);
  } catch (err) {
    core.onDetectorError?.(err);
  }
}

export const nowIso = (core: RuntimeCore) => new Date(core.clock.now()).toISOString();

/**
 * The record stored under `id`, or undefined. Ids come from URLs and bodies, and the documents are
 * plain objects: without the own-property check, `__proto__` or `constructor` would find
 * Object.prototype or a function — and a write to that "record" would pollute every object.
 */
export function ownEntry<T>(map: Record<string, T>, id: string): T | undefined {
  return typeof id === 'string' && Object.hasOwn(map, id) ? map[id] : undefined;
}

const MISSING_CODES = { agent: ErrorCode.agentNotFound, session: ErrorCode.sessionNotFound, quest: ErrorCode.questNotFound } as const;

/**
 * The one "not found" answer for a runtime record, whoever asks (the services, the REST routes,
 * the MCP tools): same sentence, same code.
 */
export function orMissing<T>(value: T | undefined | null, kind: keyof typeof MISSING_CODES, id: string): T {
  if (value == null) throw notFound(`No ${kind} ${id} in this Company.`, MISSING_CODES[kind]);
  return value;
}

export const requireAgent = (core: RuntimeCore, id: string) => orMissing(ownEntry(core.docs.runtime.data.agents, id), 'agent', id);
export const requireSession = (core: RuntimeCore, id: string) => orMissing(ownEntry(core.docs.runtime.data.sessions, id), 'session', id);
export const requireQuest = (core: RuntimeCore, id: string) => orMissing(ownEntry(core.docs.runtime.data.quests, id), 'quest', id);

/** Copies a record for the caller, so nobody mutates the live document outside `update`. */
export const copy = <T>(value: T): T => structuredClone(value);
