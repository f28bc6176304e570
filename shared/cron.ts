import { CronExpressionParser, type CronExpression } from 'cron-parser';

/**
 * `schedule:<cron-expr>` patterns (spec §6.4): parsing, validation with a reason a person can act
 * on, and the next run times. cron-parser does the calendar arithmetic (DST included); this file
 * decides what is accepted, because cron-parser is lenient: it pads a 3-field expression with
 * defaults and accepts a seconds field, both of which would silently run something other than what
 * the user meant.
 */

export const SCHEDULE_PREFIX = 'schedule:';
const MAX_EXPRESSION = 120;
const FIELDS = ['minute', 'hour', 'day of month', 'month', 'day of week'] as const;

/** The nicknames we accept, spelled out as the 5-field expressions they stand for. */
const NICKNAMES: Record<string, string> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
};

export interface ParsedSchedule {
  /** The pattern as given, e.g. `schedule:*\/5 * * * *`. */
  pattern: string;
  /** The expression after the prefix, trimmed. */
  expression: string;
  /** The 5-field form cron-parser evaluates (a nickname expanded). */
  fields: string;
  timezone: string;
}

export type ScheduleCheck = { ok: true; schedule: ParsedSchedule } | { ok: false; reason: string };

/** Is this a `schedule:` pattern at all (whether or not its expression is valid)? */
export const isSchedulePattern = (type: string): boolean => type.startsWith(SCHEDULE_PREFIX);

/** Validates an IANA zone name through Intl (the same database the calendar arithmetic uses). */
export function timezoneProblem(tz: string): string | null {
  if (tz.length === 0 || tz.length > 64) return 'timezone must be an IANA zone name such as Europe/Berlin';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return null;
  } catch {
    return `unknown timezone '${tz}': use an IANA zone name such as Europe/Berlin or America/New_York`;
  }
}

/**
 * Checks are memoised (bounded): validating an expression costs several parses, and the scheduler
 * re-reads thousands of stored patterns that share a handful of expressions on every walk.
 */
const checked = new Map<string, ScheduleCheck>();
const MAX_CHECKED = 2_000;

/** Parses `schedule:<expr>` with an optional zone (UTC when absent); invalid input gets the reason. */
export function parseSchedule(pattern: string, timezone?: string | null): ScheduleCheck {
  const key = `${timezone ?? '\u0001'}\u0000${pattern}`;
  let check = checked.get(key);
  if (!check) {
    if (checked.size >= MAX_CHECKED) checked.clear();
    checked.set(key, (check = checkSchedule(pattern, timezone)));
  }
  return check;
}

function checkSchedule(pattern: string, timezone?: string | null): ScheduleCheck {
  if (!isSchedulePattern(pattern))
    return { ok: false, reason: `a scheduled event's pattern starts with '${SCHEDULE_PREFIX}'` };
  const tz = timezone ?? 'UTC';
  const tzProblem = timezoneProblem(tz);
  if (tzProblem) return { ok: false, reason: tzProblem };
  const expression = pattern.slice(SCHEDULE_PREFIX.length).trim();
  const fields = expandExpression(expression);
  if (!fields.ok) return fields;
  return { ok: true, schedule: { pattern, expression, fields: fields.fields, timezone: tz } };
}

function expandExpression(expression: string): { ok: true; fields: string } | { ok: false; reason: string } {
  if (expression === '')
    return {
      ok: false,
      reason: "missing cron expression after 'schedule:' (e.g. 'schedule:*/5 * * * *' or 'schedule:@daily')",
    };
  if (expression.length > MAX_EXPRESSION)
    return { ok: false, reason: `cron expression is too long (at most ${MAX_EXPRESSION} characters)` };
  if (expression.startsWith('@')) {
    const name = expression.toLowerCase();
    // @reboot has no meaning for a scheduler that walks the clock: a daemon restart is not a point
    // in time the user chose, and firing on every restart would repeat work after each crash.
    if (name === '@reboot')
      return {
        ok: false,
        reason: "'@reboot' is not supported: a restart is not a schedule (react to a session:start event instead)",
      };
    const fields = NICKNAMES[name];
    if (!fields)
      return {
        ok: false,
        reason: `unknown schedule name '${expression}': use @hourly, @daily, @weekly, @monthly, @yearly or @annually`,
      };
    return { ok: true, fields };
  }
  const parts = expression.split(/\s+/);
  // Count the fields ourselves: cron-parser fills in missing fields and treats a 6th as seconds.
  if (parts.length !== 5) {
    const hint = parts.length > 5 ? ' (seconds and year fields are not supported)' : '';
    return {
      ok: false,
      reason: `a cron expression has exactly 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}${hint}`,
    };
  }
  for (let i = 0; i < 5; i++) {
    const part = parts[i]!;
    // `H` asks cron-parser for a random (hashed) value: the schedule would change from one parse to the next.
    if (
      /h/i.test(part.replace(/(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)/gi, ''))
    ) {
      return { ok: false, reason: `${FIELDS[i]} field '${part}': hashed values (H) are not supported` };
    }
    const probe = parts.map((p, j) => (j === i ? p : '*')).join(' ');
    const problem = cronProblem(probe);
    if (problem) return { ok: false, reason: `${FIELDS[i]} field '${part}': ${problem}` };
  }
  const joined = parts.join(' ');
  const problem = cronProblem(joined);
  if (problem) return { ok: false, reason: `cron expression '${joined}': ${problem}` };
  return { ok: true, fields: joined };
}

function cronProblem(fields: string): string | null {
  try {
    const expr = CronExpressionParser.parse(fields, { tz: 'UTC', currentDate: new Date(0) });
    expr.next();
    return null;
  } catch (err) {
    return describeParserError((err as Error).message);
  }
}

function describeParserError(message: string): string {
  if (/Invalid explicit day of month/i.test(message)) return 'that day of the month never occurs in the given month';
  return message.replace(/^Constraint error, /, '').replace(/^Validation error, /, '');
}

/** A reusable evaluator for one schedule (parse once, move the cursor as needed). */
export function compileSchedule(schedule: ParsedSchedule): CronExpression {
  return CronExpressionParser.parse(schedule.fields, { tz: schedule.timezone, currentDate: new Date(0) });
}

/** The latest tick at or before `atMs`, or null when there is none. */
export function latestTickAtOrBefore(expr: CronExpression, atMs: number): number | null {
  expr.reset(new Date(atMs + 1));
  try {
    return expr.prev().getTime();
  } catch {
    return null; // out of the calendar's range: there is no earlier tick
  }
}

/** The first tick strictly after `afterMs`. */
export function firstTickAfter(expr: CronExpression, afterMs: number): number | null {
  expr.reset(new Date(afterMs));
  try {
    return expr.next().getTime();
  } catch {
    return null;
  }
}

/** The next `n` run times after `fromMs`, as ISO strings (listing a scheduled event shows 5). */
export function nextRuns(pattern: string, timezone: string | null | undefined, fromMs: number, n = 5): string[] {
  const check = parseSchedule(pattern, timezone);
  if (!check.ok) return [];
  const expr = compileSchedule(check.schedule);
  const out: string[] = [];
  let at = fromMs;
  for (let i = 0; i < n; i++) {
    const next = firstTickAfter(expr, at);
    if (next === null) break;
    out.push(new Date(next).toISOString());
    at = next;
  }
  return out;
}
