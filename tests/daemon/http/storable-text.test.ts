import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { issueSession } from '../../../daemon/auth/session-issuer.js';
import { isCompanyPath } from '../../helpers/bad-inputs.js';
import { discoverSlots } from '../../helpers/input-slots.js';
import { testPostgres } from '../../helpers/postgres.js';
import type { FuzzRequest } from '../../proof/lib/fuzz-cases.js';
import { judge } from '../../proof/lib/fuzz-run.js';
import { JSON_VALUES, sweepRoutes, URL_VALUES } from '../../proof/lib/fuzz-sweep.js';
import { sweepTools, type ListedTool } from '../../proof/lib/fuzz-tools.js';
import { validTemplates } from './robustness-templates.js';
import { allRoutes, realId, setUp, slotProbes, type World } from './robustness-world.js';

/**
 * Values a store may refuse (a NUL above all: PostgreSQL cannot hold one in text) in every query
 * filter, path parameter, body field and MCP argument: never a 500, a NUL in a URL or an id is a
 * 400 that names the field, and the JSON store and PostgreSQL answer every one of them alike.
 */
const SESSION = 'Bearer session-of-the-owner';
/** For bodies and MCP arguments: NUL, a lone surrogate, huge, numbers past double and bigint, a date past JavaScript's. */
const STORAGE_JSON = ['"\\u0000"', '"\\ud800"', JSON_VALUES[5]!, '1e400', '9223372036854775808', JSON_VALUES[16]!];

/** The sweep's requests for world `w`: each URL slot with every URL value, each body field and tool argument with STORAGE_JSON. */
async function sweepOf(w: World): Promise<FuzzRequest[]> {
  const routes = allRoutes(w);
  const slots = await discoverSlots(w.t, routes, slotProbes(w, validTemplates(w)));
  const target = {
    templates: validTemplates(w),
    realId: (path: string) => realId(w, path),
    auth: (path: string): Record<string, string> =>
      path.startsWith('/api/dev/')
        ? w.t.operator
        : { authorization: SESSION, ...(isCompanyPath(path) ? { 'x-company': w.company.id } : {}) },
  };
  const mcp = {
    'content-type': 'application/json',
    authorization: `Bearer ${w.sk.key}`,
    accept: 'application/json, text/event-stream',
  };
  const listed = await w.t.request({
    method: 'POST',
    url: '/api/mcp',
    headers: mcp,
    payload: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  });
  const tools = listed.body.result.tools as ListedTool[];
  const requests = [
    ...sweepRoutes(slots, target, 'all', { url: URL_VALUES, json: STORAGE_JSON }),
    ...sweepTools(tools, w.ids, mcp, 'all', STORAGE_JSON),
  ];
  // Session-ending and deleting routes last, so the records and the session outlive the rest.
  const last = (r: FuzzRequest) => /logout|revoke|^DELETE |\/stop$/.test(r.route);
  return requests.sort((a, b) => Number(last(a)) - Number(last(b)));
}

interface Seen {
  request: FuzzRequest;
  answer: string;
  /** The first field a 400 names. */
  field?: string;
  problem: string | null;
}

/** Sends the sweep to `w`: each answer as `status code` (an MCP one as its error text, ids left out). */
async function run(w: World): Promise<Seen[]> {
  const seen: Seen[] = [];
  for (const request of await sweepOf(w)) {
    const headers = { ...request.headers };
    if (headers.authorization === SESSION) {
      const { token } = await issueSession(w.t.deps, { user: w.owner.user, kind: 'full', method: ['pwd'] });
      headers.authorization = `Bearer ${token}`;
    }
    const errorsBefore = w.errors.length;
    const res = await w.t.request({
      method: request.method as 'GET',
      url: request.path,
      headers,
      ...(request.raw === undefined ? {} : { payload: Buffer.from(request.raw) }),
    });
    const answer = { status: res.status, body: res.body, text: res.text, ms: 0, headers: null };
    const result = res.body?.result;
    const mcpText = result?.isError ? ` ${String(result.content?.[0]?.text).replace(ID, 'ID')}` : '';
    seen.push({
      request,
      answer: `${res.status} ${res.body?.code ?? ''}${mcpText}`,
      field: res.body?.fields?.[0]?.field,
      problem: judge(request, answer) ?? (w.errors.length > errorsBefore ? `logged: ${w.errors.at(-1)}` : null),
    });
  }
  return seen;
}

const label = (r: FuzzRequest) =>
  `${r.route} ${JSON.stringify(r.path.slice(0, 80))} ${String(r.raw ?? '').slice(0, 80)}`;
/** Ids differ between the two worlds (MCP's error texts hold some). */
const ID = /\b[a-z]{2,3}_[0-9a-z]{12,}\b/g;

function assertSound(seen: Seen[]): void {
  const problems = seen.filter((s) => s.problem).map((s) => `${label(s.request)} → ${s.problem}`);
  assert.equal(problems, [], problems.slice(0, 20).join('\n'));
  // Every URL slot: a NUL is a 400 that names it (the query parameter, or the path).
  for (const { request, answer, field } of seen.filter((s) => /%00/.test(s.request.path))) {
    assert.is(answer, '400 validation_failed', label(request));
    assert.is(field, /\?([a-z_]+)=/.exec(request.path)?.[1] ?? '(path)', label(request));
  }
}

let file: Seen[] = [];

test('JSON store: a NUL in any URL is a 400, and no hostile value in any slot is a 500', async () => {
  const w = await setUp({ storage: 'file' });
  try {
    file = await run(w);
    assertSound(file);
    assert.ok(file.length > 2_000, `${file.length} requests`);
  } finally {
    await w.t.close();
  }
});

const cluster = testPostgres();
if (cluster)
  test('PostgreSQL: the same, and every answer the same as the JSON store gave', async () => {
    const w = await setUp({ database: await (await cluster()).createDatabase() });
    try {
      const pg = await run(w);
      assertSound(pg);
      assert.is(pg.length, file.length, 'the same requests on both');
      const onFile = new Map(file.map((s) => [s.request.slot, s.answer]));
      const differ = pg
        .filter((s) => s.answer !== onFile.get(s.request.slot))
        .map((s) => `${label(s.request)}: JSON store ${onFile.get(s.request.slot)}, PostgreSQL ${s.answer}`);
      assert.equal(differ, [], differ.slice(0, 20).join('\n'));
    } finally {
      await w.t.close();
    }
  });

test.run();
