import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import type { RetryPolicy, SchedulePolicy } from '../../../shared/runtime-records.js';
import { invalid } from '../../domain-error.js';
import type { DuePolicy } from '../schedules/due-ticks.js';
import { isSchedulePattern } from '../../../shared/cron.js';

/** Attempts in all (the first run included): a few, because a call that failed ten times is not going to work. */
const MAX_ATTEMPTS = 10;
/** The default wait before the first retry, and the ceiling of any wait, when `backoff` leaves them out. */
const DEFAULT_BACKOFF = { initial_ms: 10_000, max_ms: 600_000, jitter: 'full' } as const;

const backoffSchema = z
  .object({
    initial_ms: z
      .number()
      .int()
      .min(1000, 'must be at least 1000 (1 s)')
      .max(3_600_000, 'must be at most 3600000 (1 h)'),
    max_ms: z
      .number()
      .int()
      .min(1000, 'must be at least 1000 (1 s)')
      .max(86_400_000, 'must be at most 86400000 (24 h)'),
    jitter: z.enum(['full', 'decorrelated']),
  })
  .partial()
  .strict();

const retrySchema = z
  .object({
    max_attempts: z
      .number('must be a whole number from 1 to 10 (attempts in all, the first included)')
      .int('must be a whole number from 1 to 10 (attempts in all, the first included)')
      .min(1, 'must be at least 1 (1: never retried)')
      .max(MAX_ATTEMPTS, `must be at most ${MAX_ATTEMPTS}`),
    backoff: backoffSchema.optional(),
  })
  .strict();

const iso = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time, e.g. 2026-02-01T00:00:00Z' });
const scheduleSchema = z
  .object({
    catch_up: z.enum(['skip', 'latest', 'all']),
    max_catch_up: z.number().int().min(1, 'must be at least 1').max(1000, 'must be at most 1000'),
    overlap: z.enum(['skip', 'allow']),
    start_at: iso.nullable(),
    end_at: iso.nullable(),
  })
  .partial()
  .strict();

function firstIssue(error: z.ZodError, root: string): string {
  const issue = error.issues[0]!;
  return `${[root, ...issue.path].join('.')}: ${issue.message}`;
}

/** A retry policy as stored (defaults filled in), or a 400 `invalid_retry` naming the field. null: no retries. */
export function checkRetry(input: unknown): RetryPolicy | null {
  if (input === undefined || input === null) return null;
  const parsed = retrySchema.safeParse(input);
  if (!parsed.success) throw invalid(firstIssue(parsed.error, 'retry'), ErrorCode.invalidRetry);
  const backoff = { ...DEFAULT_BACKOFF, ...parsed.data.backoff };
  if (parsed.data.backoff?.max_ms === undefined) backoff.max_ms = Math.max(backoff.max_ms, backoff.initial_ms);
  if (backoff.max_ms < backoff.initial_ms)
    throw invalid(
      `retry.backoff.max_ms: ${backoff.max_ms} is below initial_ms ${backoff.initial_ms}; the ceiling cannot be lower than the first wait`,
      ErrorCode.invalidRetry,
    );
  return { max_attempts: parsed.data.max_attempts, backoff };
}

/** A schedule policy as stored (only what was set), or a 400 `invalid_schedule`. Refused on other patterns. */
export function checkSchedulePolicy(type: string, input: unknown): SchedulePolicy | null {
  if (input === undefined || input === null) return null;
  if (!isSchedulePattern(type))
    throw invalid("schedule_policy applies only to 'schedule:' patterns", ErrorCode.invalidSchedule);
  const parsed = scheduleSchema.safeParse(input);
  if (!parsed.success) throw invalid(firstIssue(parsed.error, 'schedule_policy'), ErrorCode.invalidSchedule);
  const p = parsed.data;
  const at = (v: string | null | undefined) => (v ? new Date(Date.parse(v)).toISOString() : v);
  const policy: SchedulePolicy = { ...p, start_at: at(p.start_at), end_at: at(p.end_at) };
  for (const k of Object.keys(policy) as Array<keyof SchedulePolicy>) if (policy[k] === undefined) delete policy[k];
  if (policy.start_at && policy.end_at && policy.end_at <= policy.start_at)
    throw invalid(
      `schedule_policy.end_at: ${policy.end_at} is not after start_at ${policy.start_at}; no tick could ever fire`,
      ErrorCode.invalidSchedule,
    );
  return Object.keys(policy).length > 0 ? policy : null;
}

/** What a schedule runs under: its own settings, else the daemon's missed-tick policy, overlap `allow`, no bounds. */
export function effectiveSchedulePolicy(
  own: SchedulePolicy | null | undefined,
  daemon: Pick<DuePolicy, 'missed' | 'maxCatchUp'>,
): Required<SchedulePolicy> {
  return {
    catch_up: own?.catch_up ?? daemon.missed,
    max_catch_up: own?.max_catch_up ?? daemon.maxCatchUp,
    overlap: own?.overlap ?? 'allow',
    start_at: own?.start_at ?? null,
    end_at: own?.end_at ?? null,
  };
}
