import { compileLinear } from './bounded-regex.js';

/**
 * Vets a regular expression before it is stored (predicated matchers, guardrail rules). Matching
 * runs on a linear-time engine (bounded-regex.ts), so catastrophic backtracking cannot happen and
 * nested repeats like `(a+)+` are fine. What is refused is what that engine cannot run:
 * - backreferences (`\1`, `\k<name>`): they put matching beyond regular languages;
 * - lookahead and lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`);
 * - anything that is not a valid JavaScript regular expression, flags other than i, m, s, u,
 *   and sources over MAX_REGEX characters.
 */
const MAX_REGEX = 256;
const ALLOWED_FLAGS = /^[imsu]*$/;

export function regexProblem(source: string, flags = ''): string | null {
  if (source.length === 0) return 'the regular expression is empty';
  if (source.length > MAX_REGEX) return `the regular expression is too long (at most ${MAX_REGEX} characters)`;
  if (!ALLOWED_FLAGS.test(flags) || new Set(flags).size !== flags.length)
    return `flags may be i, m, s and u, each at most once (got '${flags}')`;
  try {
    new RegExp(source, flags);
  } catch (err) {
    return `invalid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  if (/\\[1-9]|\\k</.test(source.replace(/\\\\/g, '')))
    return 'backreferences (\\1, \\k<name>) are not allowed: they make matching time unbounded';
  if (/\(\?<?[=!]/.test(source.replace(/\\\\|\\\(/g, '')))
    return 'lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported: matching runs on a linear-time engine';
  try {
    compileLinear(source, flags);
  } catch (err) {
    return `not supported by the linear-time regex engine: ${(err as Error).message.replace(/^error parsing regexp: /, '')}`;
  }
  return null;
}
