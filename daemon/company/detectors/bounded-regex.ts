import { RE2JS } from 're2js';

/**
 * Detectors and guardrails run regular expressions on content that agents and webhooks control.
 * They run on RE2JS, a linear-time engine (no backtracking), so no pattern and no input can make
 * a match slow: there is no time-out, and so no "ran out of time" that used to count as "no match"
 * and let a guardrail fail open.
 *
 * The whole field is examined, in overlapping windows of SCAN_WINDOW characters that start
 * SCAN_WINDOW - SCAN_OVERLAP apart. Every scan is bounded by the window, and the scans of one field
 * add up to at most SCAN_WINDOW / (SCAN_WINDOW - SCAN_OVERLAP) (4/3) times its length: still linear.
 * A match of at most SCAN_OVERLAP characters lies whole inside some window, wherever it is in the
 * field, so it is always found; a longer one (`drop` and `table` 5,000 spaces apart) is found when
 * it lies inside one window. Reading only a prefix would let padding hide a match (4,100 spaces
 * before a `DROP TABLE`).
 * The price of reading it all: about 20 ms per rule for a 1 MiB field on one core.
 *
 * Patterns are written in JavaScript syntax (what the API documents and `regexProblem` checks);
 * `compileLinear` maps the few spellings RE2 writes differently (`\uXXXX`, `\u{…}`) and the flags.
 */
export type LinearRegex = RE2JS;

export const SCAN_WINDOW = 16 * 1024;
export const SCAN_OVERLAP = 4 * 1024;

export interface BoundedRegex {
  test(regex: LinearRegex, text: string): boolean;
}

export function createBoundedRegex(options: { window?: number; overlap?: number } = {}): BoundedRegex {
  const window = options.window ?? SCAN_WINDOW;
  const overlap = options.overlap ?? SCAN_OVERLAP;
  // Over twice the overlap: a match set aside at a window's edge (below) is then whole in the next
  // window, away from its edge, with a character to spare on each side for a surrogate pair.
  if (!(overlap >= 1 && window >= 2 * overlap + 2)) throw new Error('the scan window must be over twice the overlap');
  return {
    test(regex, text) {
      for (const [start, end] of scanWindows(text, window, overlap)) {
        // One character before the window goes along, so `^` and `\b` at its start see what is really there.
        const from = start > 0 ? start - 1 : 0;
        const slice = text.slice(from, end);
        // First the engine's DFA, several times faster than a search that reports where: its "no" is
        // final for every match that ends inside the window (one ending on the edge is the next
        // window's to find). Its "yes" may come from the window's edges, so a "yes" is checked.
        if (!regex.test(slice)) continue;
        const m = regex.matcher(slice);
        if (!m.find(start - from)) continue;
        if (end === text.length || m.end() < end - from || m.end() - m.start() > overlap) return true;
        // The match ends on the window's edge, which the engine takes for the end of the text: a `$`
        // or a closing `\b` may hold there and not in the field ("drop table|space"). It is no
        // longer than the overlap, so the next window holds it whole, away from its edge, and
        // anything it could hide here: that window decides.
      }
      return false;
    },
  };
}

/** The [start, end) windows a field of this length is scanned in, never splitting a surrogate pair. */
export function* scanWindows(text: string, window: number, overlap: number): Generator<[number, number]> {
  let start = 0;
  for (;;) {
    const end = Math.min(text.length, start + window);
    const cut = end < text.length && isPairAt(text, end) ? end - 1 : end;
    yield [start, cut];
    if (cut >= text.length) return;
    start = end - overlap;
    if (isPairAt(text, start)) start--;
  }
}

/** True when `at` falls between the two halves of a surrogate pair. */
function isPairAt(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };

/**
 * Compiled patterns, shared by every Company runtime of the process: a compiled pattern is
 * immutable (each test makes its own matcher), and every runtime compiles the same default
 * guardrail rules when it opens, which made compiling the largest share of opening one (a team
 * daemon opens every Company's at start). Bounded, like any cache of user-supplied patterns.
 */
const compiled = new Map<string, LinearRegex>();
const MAX_COMPILED = 1_000;

/** Compiles a JavaScript-syntax pattern for the linear engine; throws RE2's message when it cannot run there. */
export function compileLinear(source: string, flags = ''): LinearRegex {
  const key = `${flags}/${source}`;
  let re = compiled.get(key);
  if (!re) {
    let bits = 0;
    for (const f of flags) bits |= FLAG_BITS[f] ?? 0;
    re = RE2JS.compile(toRe2Syntax(source), bits);
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(key, re);
  }
  return re;
}

/** `\uXXXX` and `\u{X…}` (JavaScript) → `\x{…}` (RE2); every other escape is left as written. */
function toRe2Syntax(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const rest = source.slice(i + 1);
    const u4 = /^u([0-9a-fA-F]{4})/.exec(rest);
    const braced = /^u\{([0-9a-fA-F]{1,6})\}/.exec(rest);
    const m = braced ?? u4;
    if (m) {
      out += `\\x{${m[1]}}`;
      i += m[0].length;
    } else {
      out += c + (source[i + 1] ?? '');
      i++;
    }
  }
  return out;
}
