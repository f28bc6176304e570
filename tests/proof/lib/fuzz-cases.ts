import { METHODS } from 'node:http';
import {
  BAD_PARAMS,
  BAD_QUERIES,
  BAD_VALUES,
  DEEP,
  everyFieldAs,
  mutationsOf,
  RAW_BODIES,
  toPayload,
  type RouteRef,
} from '../../helpers/bad-inputs.js';

/** One generated request: what the fuzz sends, and which route it was made for. */
export interface FuzzRequest {
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  raw?: string | Uint8Array;
  /** The sweep's requests: which input slot got which value (`query event_type = %00`). */
  slot?: string;
}

export interface FuzzTarget {
  auth(path: string): Record<string, string>;
  realId(path: string): string | null;
  templates: Record<string, Record<string, unknown> | Record<string, unknown>[]>;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const INVALID_UTF8 = [
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
];
const HUGE = () => JSON.stringify({ name: 'x'.repeat(1_100_000) });
const WIDE = () => JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i])));
const DEEP_JSON = () => '['.repeat(5000) + ']'.repeat(5000);
const ODD_HEADERS: Record<string, string>[] = [
  { authorization: 'Bearer ' },
  { authorization: 'Basic YTpi' },
  { authorization: 'Bearer sk_' + 'A'.repeat(60) },
  { authorization: 'Bearer a.b.c' },
  { 'x-api-key': 'ak_nope' },
  { 'x-company': '../../etc' },
  { 'x-company': 'x'.repeat(5000) },
  { 'content-type': 'application/json; charset=latin1' },
  { 'content-type': 'text/plain' },
  { 'content-type': 'application/x-www-form-urlencoded' },
  { 'x-request-id': '\u00ff'.repeat(10) },
  { accept: 'text/event-stream' },
  { 'last-event-id': 'z'.repeat(3000) },
  { 'idempotency-key': 'k'.repeat(5000) },
  { origin: 'https://evil.example' },
  { 'mcp-protocol-version': '1999-01-01' },
];

/** Fills `:params` with a real id (so bad bodies reach the handler) or a garbage one. */
function pathOf(route: RouteRef, target: FuzzTarget, garbage: boolean): string {
  return route.path.replace(/:[A-Za-z_]+/g, () => (garbage ? pick(BAD_PARAMS) : (target.realId(route.path) ?? 'nope')));
}

/** `count` requests spread over `routes`: bodies, params, queries, headers and methods all hostile in turn. */
export function* generate(routes: RouteRef[], target: FuzzTarget, count: number): Generator<FuzzRequest> {
  const methods = METHODS.filter((m) => m !== 'CONNECT');
  for (let i = 0; i < count; i++) {
    const route = routes[i % routes.length]!;
    const key = `${route.method} ${route.path}`;
    const headers = { 'content-type': 'application/json', ...target.auth(route.path) };
    const base = { route: key, method: route.method, headers };
    const kind = Math.floor(i / routes.length) % 10;
    const templates = [target.templates[key] ?? []].flat();
    switch (kind) {
      case 0:
        yield { ...base, path: pathOf(route, target, false), raw: toPayload(everyFieldAs(pick(BAD_VALUES))) };
        break;
      case 1:
        yield { ...base, path: pathOf(route, target, false), raw: pick(RAW_BODIES) };
        break;
      case 2:
        yield { ...base, path: pathOf(route, target, true), raw: '{}' };
        break;
      case 3:
        yield {
          ...base,
          path: pathOf(route, target, false) + pick(BAD_QUERIES),
          raw: route.method === 'GET' ? undefined : '{}',
        };
        break;
      case 4:
        yield { ...base, path: pathOf(route, target, false), raw: pick(INVALID_UTF8) };
        break;
      case 5:
        yield { ...base, path: pathOf(route, target, false), raw: pick([HUGE, WIDE, DEEP_JSON])() };
        break;
      case 6:
        yield { ...base, headers: { ...headers, ...pick(ODD_HEADERS) }, path: pathOf(route, target, false), raw: '{}' };
        break;
      case 7:
        yield { ...base, method: pick(methods), path: pathOf(route, target, false), raw: undefined };
        break;
      case 8: {
        const mutations = templates.flatMap((t) => mutationsOf(t));
        yield {
          ...base,
          path: pathOf(route, target, false),
          raw: toPayload(mutations.length ? pick(mutations) : { [DEEP]: 1 }),
        };
        break;
      }
      default:
        yield {
          ...base,
          path: pathOf(route, target, false),
          raw: toPayload(templates.length ? { ...pick(templates), extra_field: pick(BAD_VALUES) } : pick(BAD_VALUES)),
        };
    }
  }
}
