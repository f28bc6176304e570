import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import { storableText } from '../../../shared/schemas/storable-text.js';
import { isoAt, type Clock } from '../../clock.js';
import { missing, parseInput } from '../../domain-error.js';
import type { EmitInput, EventRow, Firing, ToolCall } from '../company-services.js';
import type { FailureRecord, FailureStore } from '../../store/failure-types.js';
import type { FiringStore } from '../../store/runtime-types.js';
import type { CallOutcome } from './retry/attempts.js';
import { failedForGood, failureOf, presentFailure } from './failures.js';

const iso = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time, e.g. 2026-01-15T12:00:00Z' });
// Checked as stored text: the ids are compared with stored columns (a NUL is a 400, never a 500).
const id = z.string().min(1).max(300).check(storableText);
export const failuresQuery = z
  .object({ configured_event_id: id.optional(), since: iso.optional(), until: iso.optional() })
  .strict();
const replayInput = z.union([
  z.object({ failure_id: id }).strict(),
  z.object({ configured_event_id: id, since: iso.optional(), until: iso.optional() }).strict(),
]);

export interface ReplayDeps {
  clock: Clock;
  failures: FailureStore;
  firings: Pick<FiringStore, 'add'>;
  events: { get(id: string): Promise<EventRow | undefined> };
  /** Appends an event without dispatching it: a replay runs only the failed call. */
  append(input: EmitInput): Promise<EventRow>;
  runCall(cfg: { id: string }, call: ToolCall, event: EventRow, argsFrom: EventRow): Promise<CallOutcome>;
}

export interface ReplayAnswer {
  replayed: Array<{ failure_id: string; event_id: string; ok: boolean; error?: string }>;
  skipped: Array<{ failure_id: string; reason: 'already_replayed' | 'event_gone'; replay_event_id?: string | null }>;
}

/**
 * Failures and their replay. A replay takes the failure first (once, atomically: a second replay of
 * the same failure, on any daemon, does nothing), appends a `replay` event caused by the original,
 * and runs the failed call under it with the original event's `{{event.…}}` values. A replay that
 * fails again is a failure of its own, which can be replayed in turn.
 */
export function createReplayer(deps: ReplayDeps) {
  const inRange = (r: FailureRecord, since?: string, until?: string) =>
    (!since || Date.parse(r.failed_at) >= Date.parse(since)) &&
    (!until || Date.parse(r.failed_at) <= Date.parse(until));

  const replayOne = async (r: FailureRecord, answer: ReplayAnswer) => {
    const taken = await deps.failures.claimReplay(r.id, isoAt(deps.clock.now()));
    if (!taken) {
      const now = await deps.failures.get(r.id);
      return void answer.skipped.push({
        failure_id: r.id,
        reason: 'already_replayed',
        replay_event_id: now?.replay_event_id ?? null,
      });
    }
    const original = await deps.events.get(r.event_id);
    if (!original) return void answer.skipped.push({ failure_id: r.id, reason: 'event_gone' });
    const event = await deps.append({
      type: original.type,
      agent_id: original.agent_id,
      session_id: original.session_id,
      quest_id: original.quest_id,
      content: original.content,
      caused_by: original.id,
      source: 'replay',
    });
    const ran = await deps.runCall({ id: r.configured_event_id }, r.call, event, original);
    const firing: Firing = { ...ran.firing, call_index: r.call_index };
    await deps.firings.add(event.id, [firing]);
    await deps.failures.setReplayEvent(r.id, event.id);
    if (failedForGood(firing))
      await deps.failures.add(failureOf(event.id, r.call_index, r.call, firing, deps.clock.now()));
    answer.replayed.push({
      failure_id: r.id,
      event_id: event.id,
      ok: firing.ok,
      ...(firing.error !== undefined && { error: firing.error }),
    });
  };

  return {
    async list(query: unknown = {}) {
      const q = parseInput(failuresQuery, query);
      const all = await deps.failures.list({ configured_event_id: q.configured_event_id });
      return all.filter((r) => inRange(r, q.since, q.until)).map(presentFailure);
    },
    async replay(input: unknown): Promise<ReplayAnswer> {
      const body = parseInput(replayInput, input);
      const answer: ReplayAnswer = { replayed: [], skipped: [] };
      if ('failure_id' in body) {
        const r = await deps.failures.get(body.failure_id);
        if (!r) throw missing(`No failure ${body.failure_id} in this Company.`, ErrorCode.eventNotFound);
        await replayOne(r, answer);
        return answer;
      }
      const chosen = (await deps.failures.list({ configured_event_id: body.configured_event_id })).filter(
        (r) => r.replayed_at === null && inRange(r, body.since, body.until),
      );
      // One after the other: a bulk replay after an outage should not hit the fixed service all at once.
      for (const r of chosen) await replayOne(r, answer);
      return answer;
    },
  };
}

export type Replayer = ReturnType<typeof createReplayer>;
