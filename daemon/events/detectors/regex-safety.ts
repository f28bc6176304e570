/**
 * Refuses regular expressions that can backtrack catastrophically before they are stored
 * (predicated matchers run on every matching event, on content that agents and webhooks control).
 * JavaScript's engine backtracks, so `(a+)+$` on 30 'a's and a 'b' takes seconds. The rules are
 * deliberately conservative — a refused pattern can almost always be rewritten:
 * - no nested repetition: a repeated group that itself contains a repeat (`(a+)+`, `(\w+\s?)*`);
 * - no alternation under a repeat whose alternatives can start alike (`(a|ab)*`, `(\w|x)+`);
 * - no backreferences (`\1`, `\k<name>`): they put matching beyond regular languages;
 * - at most MAX_REGEX characters.
 * This is a static screen; matching is also bounded at run time (bounded-regex.ts).
 */
export const MAX_REGEX = 256;
const ALLOWED_FLAGS = /^[imsu]*$/;
const WILD = '\u0000any';

interface Frame {
  repeatInside: boolean;
  /** First token of each alternative: a lower-cased literal, WILD, or '' while still empty. */
  branches: string[];
}

type Atom = { kind: 'token'; token: string } | { kind: 'group'; frame: Frame } | null;

export function regexProblem(source: string, flags = ''): string | null {
  if (source.length === 0) return 'the regular expression is empty';
  if (source.length > MAX_REGEX) return `the regular expression is too long (at most ${MAX_REGEX} characters)`;
  if (!ALLOWED_FLAGS.test(flags) || new Set(flags).size !== flags.length) return `flags may be i, m, s and u, each at most once (got '${flags}')`;
  try {
    new RegExp(source, flags);
  } catch (err) {
    return `invalid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  return scanForBacktracking(source);
}

function scanForBacktracking(src: string): string | null {
  const stack: Frame[] = [{ repeatInside: false, branches: [''] }];
  let last: Atom = null;
  const top = () => stack[stack.length - 1]!;
  const record = (atom: Atom, token: string) => {
    last = atom;
    const b = top().branches;
    if (b[b.length - 1] === '') b[b.length - 1] = token;
  };
  for (let i = 0; i < src.length; ) {
    const c = src[i]!;
    if (c === '\\') {
      const n = src[i + 1] ?? '';
      if (/[1-9]/.test(n) || (n === 'k' && src[i + 2] === '<')) return 'backreferences (\\1, \\k<name>) are not allowed: they make matching time unbounded';
      const wild = /[dDwWsSpPbB]/.test(n);
      i += escapeLength(src, i);
      record({ kind: 'token', token: wild ? WILD : n.toLowerCase() }, wild ? WILD : n.toLowerCase());
      continue;
    }
    if (c === '[') {
      i = classEnd(src, i);
      record({ kind: 'token', token: WILD }, WILD);
      continue;
    }
    if (c === '(') {
      stack.push({ repeatInside: false, branches: [''] });
      last = null;
      i += src[i + 1] === '?' ? groupPrefixLength(src, i) : 1;
      continue;
    }
    if (c === ')') {
      const frame = stack.pop()!;
      top().repeatInside ||= frame.repeatInside;
      // A group as the first thing of an alternative: treat as "could start with anything".
      record({ kind: 'group', frame }, WILD);
      i++;
      continue;
    }
    if (c === '|') {
      top().branches.push('');
      last = null;
      i++;
      continue;
    }
    const q = quantifierAt(src, i);
    if (q) {
      if (q.repeats && last && (last as Exclude<Atom, null>).kind === 'group') {
        const frame = (last as { frame: Frame }).frame;
        if (frame.repeatInside) return 'nested repetition (a repeated group that contains a repeat, like (a+)+) can take exponential time';
        if (frame.branches.length > 1 && branchesOverlap(frame.branches)) {
          return 'alternatives that can start with the same character inside a repeat (like (a|ab)*) can take exponential time';
        }
      }
      if (q.repeats) top().repeatInside = true;
      last = null;
      i += q.length;
      continue;
    }
    if (c === '^' || c === '$') {
      i++;
      continue;
    }
    const token = c === '.' ? WILD : c.toLowerCase();
    record({ kind: 'token', token }, token);
    i++;
  }
  return null;
}

function branchesOverlap(branches: string[]): boolean {
  const seen = new Set<string>();
  for (const b of branches) {
    if (b === '' || b === WILD || seen.has(b)) return true;
    seen.add(b);
  }
  return false;
}

function quantifierAt(src: string, i: number): { repeats: boolean; length: number } | null {
  const c = src[i];
  let length = 0;
  let repeats = false;
  if (c === '*' || c === '+') [length, repeats] = [1, true];
  else if (c === '?') [length, repeats] = [1, false];
  else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i, i + 24));
    if (!m) return null;
    const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
    [length, repeats] = [m[0].length, max > 1];
  } else return null;
  if (src[i + length] === '?') length++; // lazy: same backtracking, same rules
  return { repeats, length };
}

function escapeLength(src: string, i: number): number {
  const n = src[i + 1];
  if ((n === 'p' || n === 'P' || n === 'u') && src[i + 2] === '{') return src.indexOf('}', i) - i + 1;
  if (n === 'u') return 6;
  if (n === 'x') return 4;
  if (n === 'c') return 3;
  return 2;
}

function classEnd(src: string, i: number): number {
  let j = i + 1;
  if (src[j] === '^') j++;
  if (src[j] === ']') j++;
  while (j < src.length && src[j] !== ']') j += src[j] === '\\' ? 2 : 1;
  return j + 1;
}

function groupPrefixLength(src: string, i: number): number {
  const rest = src.slice(i, i + 4);
  if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) return 4;
  if (rest.startsWith('(?<')) return src.indexOf('>', i) - i + 1;
  return 3; // (?: (?= (?!
}
