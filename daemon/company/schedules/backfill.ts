import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import { compileSchedule, firstTickAfter, isSchedulePattern, parseSchedule } from '../../../shared/cron.js';
import { isoAt } from '../../clock.js';
import { invalid, missing, parseInput } from '../../domain-error.js';
import type { EventsService } from '../company-services.js';
import type { RetryStore } from '../../store/runtime-types.js';

const iso = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time, e.g. 2026-01-15T12:00:00Z' });
const backfillInput = z.object({ from: iso, to: iso }).strict();
/** Ticks one backfill runs at most: a wider range is refused with the count, not half run. */
const MAX_TICKS = 1_000;

export interface BackfillAnswer {
  fired: Array<{ tick: string; event_id: string }>;
  skipped: Array<{ tick: string; event_id: string; reason: 'overlap' }>;
}

/**
 * Runs the ticks of a schedule that fall in a past range [from, to] — also before it was created —
 * each a `schedule:` occurrence with `content.backfill: true`. Its overlap policy holds as for live
 * ticks: `skip` fires them one after the other and skips a tick while a call of the last firing
 * still waits for a retry; `allow` fires them all at once. Backfilled ticks are not claimed on the
 * schedule's cursor: live ticks go on as they were.
 */
export async function backfillSchedule(
  deps: { events: Pick<EventsService, 'get' | 'fire'>; retries: Pick<RetryStore, 'countFor'>; nowMs: number },
  id: string,
  input: unknown,
): Promise<BackfillAnswer> {
  const body = parseInput(backfillInput, input);
  const [from, to] = [Date.parse(body.from), Date.parse(body.to)];
  if (to < from) throw invalid(`to: ${body.to} is before from ${body.from}`, ErrorCode.validationFailed);
  if (to > deps.nowMs)
    throw invalid(`to: ${body.to} is in the future; backfill runs past ticks only`, ErrorCode.validationFailed);
  const cfg = await deps.events.get(id);
  if (!cfg) throw missing(`No configured event ${id} in this Company.`, ErrorCode.eventNotFound);
  if (!isSchedulePattern(cfg.type))
    throw invalid(
      `${id} is '${cfg.type}', not a schedule: only schedule: events have ticks to backfill`,
      ErrorCode.invalidSchedule,
    );
  const parsed = parseSchedule(cfg.type, cfg.timezone);
  if (!parsed.ok) throw invalid(parsed.reason, ErrorCode.invalidSchedule);
  const expr = compileSchedule(parsed.schedule);
  const ticks: number[] = [];
  for (let t = firstTickAfter(expr, from - 1); t !== null && t <= to; t = firstTickAfter(expr, t)) {
    if (ticks.length === MAX_TICKS)
      throw invalid(
        `from/to: more than ${MAX_TICKS} ticks in the range; backfill it in parts`,
        ErrorCode.validationFailed,
      );
    ticks.push(t);
  }
  const answer: BackfillAnswer = { fired: [], skipped: [] };
  const fireTick = async (t: number) => {
    const content = { tick: isoAt(t), scheduled: cfg.type, backfill: true };
    if (serial && (await deps.retries.countFor(id)) > 0) {
      const { event } = await deps.events.fire(id, {
        content: { ...content, skipped: 'overlap' },
        source: 'schedule',
        skip: 'overlap',
      });
      return void answer.skipped.push({ tick: isoAt(t), event_id: event.id, reason: 'overlap' });
    }
    const { event } = await deps.events.fire(id, { content, source: 'schedule' });
    answer.fired.push({ tick: isoAt(t), event_id: event.id });
  };
  const serial = cfg.schedule_policy?.overlap === 'skip';
  if (serial) for (const t of ticks) await fireTick(t);
  else await Promise.all(ticks.map(fireTick));
  answer.fired.sort((a, b) => a.tick.localeCompare(b.tick));
  return answer;
}
