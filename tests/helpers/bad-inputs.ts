import type { Router } from '@koa/router';
import { companyRoutePattern } from '../../daemon/companies/route-pattern.js';
import { WEBHOOK_PATH } from '../../daemon/company/index.js';

/**
 * The battery of hostile inputs of the robustness sweep (tests/daemon/http/robustness.test.ts):
 * wrong JSON types, odd strings (NUL, lone surrogates, prototype keys, very long), garbage path
 * params and query strings, and the routes of a set of @koa/router instances to send them to.
 */

export interface RouteRef {
  method: string;
  path: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every (method, path) the routers serve, in their order; HEAD and the like are left out. */
export function listRoutes(routers: Router[]): RouteRef[] {
  const seen = new Set<string>();
  const out: RouteRef[] = [];
  for (const router of routers) {
    for (const layer of router.stack) {
      for (const method of layer.methods.filter((m) => METHODS.includes(m))) {
        const key = `${method} ${layer.path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ method, path: String(layer.path) });
      }
    }
  }
  return out;
}

/** Strings that pass a `z.string()` but trip careless code downstream. */
export const ODD_STRINGS: string[] = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '../../../etc/passwd',
  '%00%ZZ',
  '😀'.repeat(50),
  '\u202e\u0007\u001b[31m',
  'x'.repeat(1000),
  'null',
  '1e999',
];

/** Long enough to pass no field's cap, short enough to fit the 64 KiB auth body limit. */
const LONG = 'y'.repeat(60_000);

/** Values of the wrong type for any field. */
export const WRONG_TYPES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  true,
  false,
  [],
  [1, 'a', null],
  {},
  { a: { b: { c: [1, { d: 2 }] } } },
];

/**
 * Stands for a value nested 10 000 levels deep, which JSON.parse reads but JSON.stringify and
 * structuredClone cannot handle. `toPayload` swaps it in as text (the test itself cannot stringify it).
 */
export const DEEP = '\u0000deep\u0000';
const DEEP_JSON = '['.repeat(10_000) + ']'.repeat(10_000);

export const BAD_VALUES: unknown[] = [...WRONG_TYPES, ...ODD_STRINGS, LONG, DEEP];

/** JSON text of `body`, with every DEEP replaced by the deeply nested value. */
export const toPayload = (body: unknown): string => JSON.stringify(body).split(JSON.stringify(DEEP)).join(DEEP_JSON);

/** Whole bodies (raw JSON text) that are not the object any route expects. */
export const RAW_BODIES: string[] = [
  'null',
  '[]',
  '[{}]',
  '"x"',
  '123',
  'true',
  '{}',
  '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"content":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}',
  '{"a":1,"a":2}',
];

/** Every field name some route of the app reads: a body with all of them wrong reaches every schema's checks. */
export const FIELDS = [
  'email',
  'password',
  'invite_code',
  'code',
  'token',
  'new_email',
  'current_password',
  'new_password',
  'name',
  'display_name',
  'timezone',
  'locale',
  'avatar',
  'session_id',
  'partial_token',
  'address',
  'message',
  'signature',
  'response',
  'root',
  'tier',
  'title',
  'agent_id',
  'quest_id',
  'role',
  'gateway_channel_id',
  'context_budget',
  'status',
  'result',
  'text',
  'from',
  'start_turn',
  'to',
  'type',
  'tool_calls',
  'enabled',
  'matcher',
  'content',
  'configured_event_id',
  'event_id',
  'caused_by',
  'id',
  'jsonrpc',
  'method',
  'params',
];

export const everyFieldAs = (value: unknown) => Object.fromEntries(FIELDS.map((f) => [f, value]));

/** Garbage for a path parameter (already URL-encoded where it matters). */
export const BAD_PARAMS: string[] = [
  'x',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '%00',
  '%ZZ',
  '%ED%A0%80', // a lone surrogate, percent-encoded: decodeURIComponent throws on it
  '%C0%AF',
  '..%2F..%2Fetc',
  '%20',
  'a'.repeat(10_000),
];

/** Query strings: repeated, wrong types, malformed encoding, prototype keys. */
export const BAD_QUERIES: string[] = [
  'a=1&a=2',
  [
    'to',
    'since_id',
    'since',
    'limit',
    'wait',
    'configured',
    'event_type',
    'agent_id',
    'session_id',
    'quest_id',
    'status',
    'event_id',
    'company_id',
    'trust_id',
    'token',
  ]
    .map((q) => `${q}=1&${q}=2`)
    .join('&'),
  'limit=abc&wait=-1&since=yesterday&configured=maybe&status=nope',
  'limit=1e400&wait=NaN&since_id=&event_id=',
  'limit=-5&wait=Infinity',
  'since=2026-02-30T25:61:61Z&limit=0.5',
  'since=0000-01-01T00:00:00Z&wait=0.0001',
  'since=9999-12-31T23:59:59.999999999Z&limit=1000000',
  'since=2026-01-15T12:00:00%2B99:99',
  'event_id=%ZZ&since_id=%ED%A0%80',
  '__proto__=1&constructor=x&__proto__[polluted]=yes',
  'to=' + 'x'.repeat(10_000),
  'since_id=' + 'z'.repeat(300),
];

/** Bodies sent with a content type that is not JSON, or a charset that is not UTF-8. */
export const BAD_CONTENT: { type: string; payload: string }[] = [
  { type: 'text/plain', payload: '{}' },
  { type: 'application/x-www-form-urlencoded', payload: 'email=a@b.c&password=x' },
  { type: 'multipart/form-data; boundary=x', payload: '--x\r\n\r\n--x--' },
  { type: 'application/json; charset=latin1', payload: '{}' },
  { type: 'application/json', payload: '{"a": ' },
  { type: 'application/json', payload: '\u0000' },
];

/**
 * Every variant of `template` with one leaf (to depth 3) replaced by a bad value, plus the
 * template with each of its keys removed: the inputs that get past the other fields' checks.
 */
export function mutationsOf(template: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  const walk = (node: unknown, replace: (v: unknown) => unknown, depth: number) => {
    for (const v of BAD_VALUES) out.push(replace(v));
    if (depth >= 3 || node === null || typeof node !== 'object') return;
    const entries = Array.isArray(node) ? node.map((v, i) => [i, v] as const) : Object.entries(node);
    for (const [key, child] of entries) {
      walk(
        child,
        (v) => replace(Array.isArray(node) ? node.map((c, i) => (i === key ? v : c)) : { ...node, [key]: v }),
        depth + 1,
      );
    }
  };
  for (const [key, child] of Object.entries(template)) {
    walk(child, (v) => ({ ...template, [key]: v }), 1);
    const { [key]: _dropped, ...rest } = template;
    out.push(rest);
  }
  return out;
}

/** True for a Company route's path (the tenant router's, or the webhook delivery), given as its pattern (`/api/agents/:id`) or filled in. */
export function isCompanyPath(path: string): boolean {
  const bare = path.split('?')[0]!;
  return WEBHOOK_PATH.test(bare) || METHODS.some((method) => companyRoutePattern(method, bare) !== null);
}
