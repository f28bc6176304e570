import { RE2JS } from 're2js';

/**
 * Detectors and guardrails run regular expressions on content that agents and webhooks control.
 * They run on RE2JS, a linear-time engine (no backtracking), so no pattern and no input can make
 * a match slow: there is no time-out, and so no "ran out of time" that used to count as "no match"
 * and let a guardrail fail open (issue 14 finding 9). Only the first `maxInput` characters of a
 * field are examined, so the cost of one test stays bounded by that, whatever the body size.
 *
 * Patterns are written in JavaScript syntax (what the API documents and `regexProblem` checks);
 * `compileLinear` maps the few spellings RE2 writes differently (`\uXXXX`, `\u{…}`) and the flags.
 */
export type LinearRegex = RE2JS;

export interface BoundedRegex {
  test(regex: LinearRegex, text: string): boolean;
}

export function createBoundedRegex(options: { maxInput?: number } = {}): BoundedRegex {
  const maxInput = options.maxInput ?? 4096;
  return {
    test: (regex, text) => regex.matcher(text.length > maxInput ? text.slice(0, maxInput) : text).find(),
  };
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
