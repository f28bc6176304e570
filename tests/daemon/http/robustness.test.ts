import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { issueSession } from '../../../daemon/auth/session-issuer.js';
import {
  BAD_CONTENT,
  BAD_PARAMS,
  DEEP,
  BAD_QUERIES,
  BAD_VALUES,
  RAW_BODIES,
  everyFieldAs,
  isCompanyPath,
  mutationsOf,
  toPayload,
  type RouteRef,
} from '../../helpers/bad-inputs.js';
import type { TestResponse } from '../../helpers/test-app.js';
import { validTemplates, type Templates } from './robustness-templates.js';
import { allRoutes, headersFor, realId, setUp, type World } from './robustness-world.js';
import { testPostgres } from '../../helpers/postgres.js';

interface Probe {
  url: string;
  method: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Sends the whole battery to one route; returns a line per answer that broke the rules. */
async function sweepRoute(w: World, route: RouteRef, templates: Templates): Promise<string[]> {
  const problems: string[] = [];
  const withBody = route.method !== 'GET';
  const fill = (path: string, value: string) => path.replace(/:[A-Za-z_]+/g, value);
  const good = fill(route.path, realId(w, route.path) ?? 'x');
  const probes: Probe[] = [];
  const auth = await headersFor(w, route.path, 'session');
  const json = (payload: string, url = good, headers = auth): Probe => ({
    url,
    method: route.method,
    headers: { ...headers, 'content-type': 'application/json' },
    payload,
  });

  if (withBody) {
    for (const raw of RAW_BODIES) probes.push(json(raw));
    // A very long string or a deep value in all fields at once only costs time (a 413, or 45 deep
    // values to parse): the template mutations send those one field at a time, and RAW_BODIES one deep body.
    for (const v of BAD_VALUES.filter((v) => v !== DEEP && (typeof v !== 'string' || v.length < 10_000)))
      probes.push(json(toPayload(everyFieldAs(v))));
    for (const template of [templates[`${route.method} ${route.path}`] ?? []].flat()) {
      for (const body of mutationsOf(template)) probes.push(json(toPayload(body)));
    }
    for (const c of BAD_CONTENT)
      probes.push({
        url: good,
        method: route.method,
        headers: { ...auth, 'content-type': c.type },
        payload: c.payload,
      });
    probes.push({ url: good, method: route.method, headers: auth, payload: '{}' }); // no content type at all
  }
  for (const q of BAD_QUERIES)
    probes.push(withBody ? json('{}', `${good}?${q}`) : { url: `${good}?${q}`, method: route.method, headers: auth });
  if (route.path.includes(':')) {
    for (const p of BAD_PARAMS)
      probes.push(
        withBody ? json('{}', fill(route.path, p)) : { url: fill(route.path, p), method: route.method, headers: auth },
      );
  }
  if (isCompanyPath(route.path)) {
    const key = await headersFor(w, route.path, 'key');
    probes.push(json('{}', good, key), json('[]', good, key), json(JSON.stringify(everyFieldAs([])), good, key));
    for (const ak of ['ak_nope', 'x'.repeat(5000), 'a.b.c']) probes.push(json('{}', good, { ...key, 'x-api-key': ak }));
    for (const company of ['__proto__', 'x'.repeat(5000), 'cmp_nope', ' '])
      probes.push(json('{}', good, { ...auth, 'x-company': company }));
  }
  if (route.method === 'GET') {
    probes.push(
      { url: good, method: 'HEAD', headers: auth },
      { url: good, method: 'GET', headers: { ...auth, 'last-event-id': 'z'.repeat(5000) } },
    );
  }
  probes.push({ url: good, method: 'OPTIONS', headers: auth });
  for (const other of w.others) {
    // Fresh each route, as for the owner: one route's logout must not blind the next.
    const { token } = await issueSession(w.t.deps, {
      user: other.user,
      kind: other.user.email_verified_at ? 'full' : 'unverified',
      method: ['pwd'],
    });
    const headers = {
      authorization: `Bearer ${token}`,
      ...(isCompanyPath(route.path) ? { 'x-company': w.company.id } : {}),
    };
    probes.push(
      withBody ? json(toPayload(everyFieldAs(7)), good, headers) : { url: good, method: route.method, headers },
    );
  }
  for (const bad of [
    'Bearer',
    'Bearer a.b.c',
    `Bearer ${'x'.repeat(9000)}`,
    'Basic Zm9vOmJhcg==',
    'Bearer sk_live_nope',
  ]) {
    probes.push(
      withBody
        ? json('{}', good, { authorization: bad })
        : { url: good, method: route.method, headers: { authorization: bad } },
    );
  }

  for (const probe of probes) {
    const errorsBefore = w.errors.length;
    const res = await w.t.request(probe);
    const problem = judge(res, probe.method, probe.url);
    if (problem)
      problems.push(
        `${probe.method} ${probe.url.slice(0, 120)} ${(probe.payload ?? '').slice(0, 160)} → ${problem}\n    ${w.errors.slice(errorsBefore).join('\n    ').slice(0, 600)}`,
      );
  }
  const health = await w.t.get('/healthz');
  if (health.status !== 200)
    problems.push(`${route.method} ${route.path}: /healthz answered ${health.status} afterwards`);
  return problems;
}

function judge(res: TestResponse, method: string, url: string): string | null {
  if (res.status >= 500) return `${res.status} ${res.text.slice(0, 200)}`;
  if (res.status < 400 || method === 'HEAD') return null; // a HEAD answer has no body, by HTTP's rules
  // The authorization server speaks OAuth (RFC 6749 §5.2: `{ error, error_description }`), and its
  // authorization endpoint shows an error page to the browser rather than redirect to a bad address.
  if (isOAuthProtocolPath(url)) {
    const page = String(res.headers['content-type']).startsWith('text/html') && url.startsWith('/oauth/authorize');
    return page || typeof res.body?.error === 'string'
      ? null
      : `${res.status} neither OAuth error nor page: ${res.text.slice(0, 200)}`;
  }
  // The MCP endpoint speaks JSON-RPC: its bad-input answers carry a JSON-RPC error object instead.
  const jsonRpc = res.body?.jsonrpc === '2.0' && typeof res.body?.error?.message === 'string';
  if (!jsonRpc && (typeof res.body?.error !== 'string' || typeof res.body?.code !== 'string'))
    return `${res.status} without {error, code}: ${res.text.slice(0, 200)}`;
  return null;
}

const isOAuthProtocolPath = (url: string) => url.startsWith('/oauth/') || url.startsWith('/.well-known/o');

/** The whole battery on every route of `w`, and the prototypes untouched afterwards. */
async function sweepAll(w: World) {
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  const routes = allRoutes(w);
  assert.ok(routes.length > 60, `only ${routes.length} routes found`);
  // The runtime's emitter routes are mounted apart from the rest: pin that the sweep reaches them.
  for (const path of ['/api/detectors/report', '/api/questions/:id/answer', '/api/channels/:name/rotate'])
    assert.ok(
      routes.some((r) => r.path === path),
      `${path} is not in the sweep`,
    );
  const templates = validTemplates(w);
  const problems: string[] = [];
  for (const route of routes) problems.push(...(await sweepRoute(w, route, templates)));
  assert.equal(problems, [], `\n${problems.length} bad answers:\n${problems.slice(0, 40).join('\n')}`);
  assert.equal(Object.getOwnPropertyNames(Object.prototype).sort(), protoBefore, 'Object.prototype was polluted');
  assert.equal(
    Object.getOwnPropertyNames(Function.prototype).includes('status'),
    false,
    'Function.prototype was polluted',
  );
}

test('every route answers every bad input with a 4xx {error, code} (never a 500), and the daemon stays up', async () => {
  await sweepAll(await setUp());
});

// Team mode stores what the JSON store keeps in memory in PostgreSQL, which refuses what a
// JavaScript string allows (NUL in text and json, index rows over ~2.7 KB, numbers past bigint):
// the same battery through every store on a real database.
const cluster = testPostgres();
if (cluster)
  test('in team mode (PostgreSQL) too: every bad input gets a 4xx, never a 500', async () => {
    const w = await setUp({ database: await (await cluster()).createDatabase() });
    try {
      await sweepAll(w);
    } finally {
      await w.t.close();
    }
  });

test.run();
