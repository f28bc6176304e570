import * as z from 'zod';

/**
 * The deepest bodies we accept. JSON.parse reads any depth, but JSON.stringify and structuredClone
 * recurse and throw past a few thousand levels: a deep value inside a free-form field (`content`,
 * `result`, tool `args`) would be accepted, then fail when stored — and, as the document update
 * had already applied it in memory, every later write of that document would fail too.
 * No request of the API needs more than a handful of levels; 100 leaves room for any payload.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * Whether valid JSON text nests arrays and objects deeper than `limit`. One pass over the text,
 * counting brackets outside strings; it stops as soon as the limit is crossed.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, quotes included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * The same limit on a value already parsed: for free-form fields (`content`, `result`, tool `args`)
 * that reach the services by other doors than the body parser — the MCP endpoint reads its own
 * body, and the scheduler and detectors call the services directly. Iterative, so depth cannot
 * overflow the stack here either.
 */
export function valueNestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Any JSON value, nested at most MAX_JSON_DEPTH levels: the schema of every free-form field. */
export const boundedJson = z.unknown().refine((v) => !valueNestsDeeperThan(v, MAX_JSON_DEPTH), {
  message: `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
});
