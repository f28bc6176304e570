import { randomBytes } from 'node:crypto';
import type { RouteSlots } from '../../helpers/input-slots.js';
import type { FuzzRequest, FuzzTarget } from './fuzz-cases.js';

/**
 * The fuzz's sweep: a hostile value in every single query parameter, path parameter and body
 * field of every route (each found by running the route, input-slots.ts), one slot at a time with
 * the rest of the request valid, so the value reaches the code and the store behind the slot.
 * The values are what a store may refuse or mangle where a JavaScript string or number is fine.
 */

/** How many values each slot gets: all of them, or NUL plus one other in turn (CI's short runs), or none. */
export type SweepDepth = 'all' | 'quick' | 'off';
export const SWEEP_DEPTHS: readonly SweepDepth[] = ['all', 'quick', 'off'];

/** Random, so that no compression brings it under PostgreSQL's ~2.7 KB index row limit. */
const incompressible = (chars: number) => randomBytes(chars).toString('base64url').slice(0, chars);

/**
 * For a URL, as sent: percent-encoded, or raw bytes (characters U+0080–U+00FF go out as one
 * byte each, so `\xff\xfe` is invalid UTF-8 on the wire). NUL comes first: every slot gets it.
 */
export const URL_VALUES: readonly string[] = [
  '%00',
  'a%00b',
  '%FF%FE', // invalid UTF-8, percent-encoded
  '\xff\xfe\xc0\xaf', // invalid UTF-8, raw
  '%ED%A0%80', // a lone surrogate, UTF-8-encoded (decodes to U+FFFD at best)
  incompressible(6_000),
  "'%20OR%20'1'%3D'1'--",
  '%25%5F%5C', // % _ \ : LIKE's wildcards and the escape character
  '%5C0', // backslash zero: how the PostgreSQL stores escape a NUL in a key
  '99999999999999999999',
  '-9223372036854775809',
  '1e309',
  '%2B275760-09-13T00:00:00.001Z', // a millisecond past JavaScript's last date
  '-271821-04-19T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '2026-02-30T25:61:61Z',
  '__proto__',
  'constructor',
  'evt_9999999999999999',
];

/** Stands for invalid UTF-8 bytes in a JSON value (a body is bytes; a JSON string cannot hold them). */
export const INVALID_BYTES = Buffer.from([0x22, 0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x22]);
const BYTES = '\u0000bytes\u0000';

/** For a JSON field, as JSON text, so numbers reach the parser as written (1e400 parses to Infinity). */
export const JSON_VALUES: readonly string[] = [
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"x\\udfffy"',
  BYTES,
  JSON.stringify(incompressible(3_000)),
  JSON.stringify(incompressible(100_000)),
  JSON.stringify("' OR '1'='1' --; DROP TABLE svc_events"),
  JSON.stringify('%_\\'),
  JSON.stringify('\\0'),
  '1e400',
  '-1e400',
  '9223372036854775808',
  '-9223372036854775809',
  '123456789012345678901234567890',
  '1e-400',
  '"+275760-09-13T00:00:00.001Z"',
  '"0000-01-01T00:00:00Z"',
  '"__proto__"',
  '"constructor"',
];

/** The values slot number `i` gets at `depth`: with quick, the first (NUL) and one other, a different one per slot. */
export function valuesFor<T>(list: readonly T[], i: number, depth: SweepDepth): readonly T[] {
  if (depth === 'off') return [];
  if (depth === 'all') return list;
  return [list[0]!, list[1 + (i % (list.length - 1))]!];
}

/** The JSON text of `body` with the value (JSON text, or invalid bytes) at `path`. */
export function bodyWith(body: unknown, path: string[], json: string): string | Uint8Array {
  const marker = '\u0000slot\u0000';
  const copy = structuredClone(body ?? {}) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = (node[key] = next !== null && typeof next === 'object' ? next : {}) as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = marker;
  const [before, after] = JSON.stringify(copy).split(JSON.stringify(marker)) as [string, string];
  return json === BYTES
    ? Buffer.concat([Buffer.from(before), INVALID_BYTES, Buffer.from(after)])
    : before + json + after;
}

/** Requests for every slot of every route, one hostile value each (`values`: other lists than these). */
export function* sweepRoutes(
  slots: RouteSlots[],
  target: FuzzTarget,
  depth: SweepDepth,
  values: { url: readonly string[]; json: readonly string[] } = { url: URL_VALUES, json: JSON_VALUES },
): Generator<FuzzRequest> {
  let i = 0;
  for (const { route, query, params, body } of slots) {
    const key = `${route.method} ${route.path}`;
    const id = target.realId(route.path) ?? 'x';
    const headers: Record<string, string> = { 'content-type': 'application/json', ...target.auth(route.path) };
    const template = [target.templates[key] ?? {}].flat()[0];
    const raw = route.method === 'GET' ? undefined : JSON.stringify(template);
    const base = { route: key, method: route.method, headers, raw };
    const filled = route.path.replace(/:[A-Za-z_]+/g, id);
    for (const q of query) {
      // Read only without X-Company (the Company selectors): sent that way, so the value is read.
      const { 'x-company': _selected, ...unselected } = headers;
      for (const v of valuesFor(values.url, i++, depth))
        yield {
          ...base,
          headers: q.probe === 'unselected' ? unselected : headers,
          path: `${filled}?${q.key}=${v}`,
          slot: `${key} query ${q.key} = ${v}`,
        };
    }
    for (const p of params) {
      for (const v of valuesFor(values.url, i++, depth))
        yield {
          ...base,
          path: route.path.replace(new RegExp(`:${p}\\b`), v).replace(/:[A-Za-z_]+/g, id),
          slot: `${key} :${p} = ${v}`,
        };
    }
    for (const path of body) {
      for (const v of valuesFor(values.json, i++, depth))
        yield { ...base, path: filled, raw: bodyWith(template, path, v), slot: `${key} body ${path.join('.')} = ${v}` };
    }
  }
}
