/**
 * Event patterns (spec §6.1, §6.2): `<prefix>:<name>`. The eleven known dispatch prefixes each have
 * an emitter; any other well-formed prefix is accepted too, and such a configured event is stored
 * and shown as `armed` and never fires (spec §3.5) — so a typo is visible, not silently lost.
 * The daemon validates configured events with this, the CLI checks input early.
 */
export const KNOWN_PREFIXES = [
  'schedule',
  'session',
  'webhook',
  'loop',
  'guardrail',
  'graph_guardrail',
  'shell',
  'context',
  'ideas',
  'agent',
  'question',
] as const;

export type EventPrefix = (typeof KNOWN_PREFIXES)[number];

/** The nine patterns seeded (with empty tool calls) for every session. */
export const LIFECYCLE_PATTERNS = [
  'session:start',
  'session:execution_start',
  'session:quest_start',
  'session:quest_end',
  'session:quest_result',
  'session:step_start',
  'session:stopped',
  'session:first_execution_complete',
  'context:budget:exceeded',
] as const;

export type PatternProblem = 'empty' | 'dotted' | 'no_prefix' | 'bad_prefix' | 'no_name' | 'bad_characters';

export type ParsedPattern =
  | { ok: true; prefix: string; name: string /** One of the eleven dispatch prefixes. */; known: boolean }
  | { ok: false; problem: PatternProblem; message: string };

/** A prefix is a lower-case identifier: `session`, `graph_guardrail`, `deploy`. */
const PREFIX_SHAPE = /^[a-z][a-z0-9_-]{0,39}$/;

const MAX_PATTERN = 200;

/**
 * Splits a pattern into its prefix and name. A "no" is a value with a sentence for people:
 * dotted names (`agent.spawned`) are the classic mistake, so they get their own explanation.
 */
export function parsePattern(raw: string): ParsedPattern {
  const pattern = raw.trim();
  if (pattern.length === 0)
    return fail('empty', 'An event pattern cannot be empty: use <prefix>:<name>, e.g. session:start.');
  if (pattern.length > MAX_PATTERN)
    return fail('bad_characters', `An event pattern is at most ${MAX_PATTERN} characters.`);
  if (/[\u0000-\u001f\u007f]/.test(pattern))
    return fail('bad_characters', 'An event pattern cannot contain control characters.');
  const colon = pattern.indexOf(':');
  if (colon < 0) {
    if (pattern.includes('.')) {
      return fail(
        'dotted',
        `'${pattern}' is a dotted name, and dotted names are not patterns: they never fire. ` +
          `Use <prefix>:<name> with one of the known prefixes (${KNOWN_PREFIXES.join(', ')}), e.g. session:start.`,
      );
    }
    return fail('no_prefix', `'${pattern}' has no prefix: use <prefix>:<name>, e.g. session:start.`);
  }
  const prefix = pattern.slice(0, colon);
  const name = pattern.slice(colon + 1);
  if (!PREFIX_SHAPE.test(prefix)) {
    return fail(
      'bad_prefix',
      `'${prefix}' is not a prefix: use a lower-case word such as ${KNOWN_PREFIXES.slice(0, 3).join(', ')} before the colon.`,
    );
  }
  // A schedule's name is a cron expression (spaces, stars, slashes): the scheduler validates it.
  if (name.trim().length === 0) return fail('no_name', `'${pattern}' has no name after '${prefix}:'.`);
  if (prefix !== 'schedule' && /\s/.test(name))
    return fail('bad_characters', `An event name cannot contain spaces: '${name}'.`);
  return { ok: true, prefix, name, known: (KNOWN_PREFIXES as readonly string[]).includes(prefix) };
}

/** The prefix of an already valid pattern (`context:budget:exceeded` → `context`). */
export const prefixOf = (pattern: string): string => pattern.slice(0, Math.max(0, pattern.indexOf(':')));

function fail(problem: PatternProblem, message: string): ParsedPattern {
  return { ok: false, problem, message };
}
