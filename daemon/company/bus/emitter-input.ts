import { ErrorCode } from '../../../shared/errors.js';
import type { Matcher, NewConfiguredEvent, SchedulePolicy } from '../company-services.js';
import { parseMatcher } from '../detectors/matcher-schema.js';
import { isSchedulePattern, nextRuns, parseSchedule } from '../../../shared/cron.js';

/**
 * The emitter-specific checks of creating a configured event (`POST /api/events`, the events
 * tool): a `schedule:` pattern must parse, a timezone belongs only to a schedule, and a matcher
 * must pass `parseMatcher`. The events service calls this before storing; the answer says which
 * error code to use, so the route stays thin.
 */
export type EmitterInputCheck =
  | { ok: true; matcher: Matcher | null; timezone: string | null }
  | { ok: false; code: typeof ErrorCode.invalidSchedule | typeof ErrorCode.invalidMatcher; message: string };

export function checkEmitterInput(input: Pick<NewConfiguredEvent, 'type' | 'timezone' | 'matcher'>): EmitterInputCheck {
  const timezone = input.timezone ?? null;
  if (isSchedulePattern(input.type)) {
    const check = parseSchedule(input.type, timezone);
    if (!check.ok) return { ok: false, code: ErrorCode.invalidSchedule, message: check.reason };
  } else if (timezone !== null) {
    return { ok: false, code: ErrorCode.invalidSchedule, message: "timezone applies only to 'schedule:' patterns" };
  }
  if (input.matcher === undefined || input.matcher === null) return { ok: true, matcher: null, timezone };
  if (isSchedulePattern(input.type))
    return {
      ok: false,
      code: ErrorCode.invalidMatcher,
      message: 'a scheduled event cannot have a matcher: its ticks always fire',
    };
  const matcher = parseMatcher(input.matcher);
  if (!matcher.ok) return { ok: false, code: ErrorCode.invalidMatcher, message: matcher.reason };
  return { ok: true, matcher: matcher.matcher, timezone };
}

/**
 * The `next_runs` a listing adds to a scheduled event (empty for other patterns): within its
 * `start_at` / `end_at` when it has them, so an ended schedule lists none.
 */
export function nextRunsOf(
  cfg: { type: string; timezone?: string | null; schedule_policy?: SchedulePolicy | null },
  nowMs: number,
): string[] {
  if (!isSchedulePattern(cfg.type)) return [];
  const start = cfg.schedule_policy?.start_at ? Date.parse(cfg.schedule_policy.start_at) - 1 : nowMs;
  const end = cfg.schedule_policy?.end_at ?? null;
  const runs = nextRuns(cfg.type, cfg.timezone, Math.max(nowMs, start), 5);
  return end ? runs.filter((at) => at <= end) : runs;
}

/**
 * A configured event as REST and MCP show it: a scheduled one carries its next 5 runs (spec §6.4),
 * computed when shown and never stored, so the minute walk never pays for them.
 */
export function presentConfigured<T extends { type: string; timezone?: string | null }>(
  cfg: T,
  nowMs: number,
): T | (T & { next_runs: string[] }) {
  return isSchedulePattern(cfg.type) ? { ...cfg, next_runs: nextRunsOf(cfg, nowMs) } : cfg;
}
