import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { setUp, type World } from '../../http/robustness-world.js';
import { testPostgres } from '../../../helpers/postgres.js';

/**
 * The event log's filters with the values PostgreSQL refuses or could mangle, on the JSON store
 * and on PostgreSQL. A NUL in a filter used to reach PostgreSQL, which refused it: 500 there, 200
 * on the JSON store. Now both answer 400; any other text is an ordinary value that matches nothing.
 */
const FILTERS = ['event_type', 'agent_id', 'session_id', 'quest_id'];
const NUL_ERROR = 'must not contain a NUL character (U+0000)';
const random = 'Zq8'.repeat(2_000);

/** Value (as sent in the URL) → what every filter answers. */
const TABLE: [value: string, status: number, code: string | null][] = [
  ['%00', 400, 'validation_failed'],
  ['a%00b', 400, 'validation_failed'],
  ['%FF%FE', 200, null], // invalid UTF-8: decoded to U+FFFD, ordinary text
  ['%ED%A0%80', 200, null], // an encoded lone surrogate: U+FFFD too
  ["'%20OR%20'1'%3D'1'--", 200, null],
  ['%25%5F%5C', 200, null], // % _ \ match themselves, never as wildcards
  ['%5C0', 200, null], // the PostgreSQL stores' own escape of a NUL, as text
  ['__proto__', 200, null],
  [random, 400, 'validation_failed'], // over 200 characters
];

async function assertTable(w: World) {
  const tenant = { ...w.owner.auth, 'x-company': w.company.id };
  await w.t.post('/api/events/trigger', { type: 'agent:thing', agent_id: w.ids.agent }, tenant);
  for (const path of ['/api/events', '/api/events?configured=true&', '/api/events/stream?'])
    for (const filter of FILTERS)
      for (const [value, status, code] of TABLE) {
        const url = `${path.includes('?') ? path : `${path}?`}${filter}=${value}`;
        const res = await w.t.get(url, tenant);
        const what = `${url.slice(0, 80)} → ${res.status} ${res.text.slice(0, 120)}`;
        if (status === 200 && path.includes('stream')) {
          assert.is(res.status, 200, what); // the stream opened: it had no page to send
          continue;
        }
        assert.is(res.status, status, what);
        if (code) assert.is(res.body.code, code, what);
        if (value.includes('%00')) assert.is(res.body.error, `${filter}: ${NUL_ERROR}`, what);
        if (status === 200) assert.equal(res.body.events, [], what);
      }
}

async function assertMcp(w: World) {
  const mcp = { authorization: `Bearer ${w.sk.key}`, accept: 'application/json, text/event-stream' };
  for (const filter of FILTERS) {
    const res = await w.t.post(
      '/api/mcp',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'events', arguments: { action: 'list', [filter]: 'a\u0000b' } },
      },
      mcp,
    );
    assert.is(res.body.result.isError, true, filter);
    assert.match(res.body.result.content[0].text, `${filter}: ${NUL_ERROR}`);
  }
}

test('JSON store: each event filter answers the table; a NUL is a 400 over REST and a tool error over MCP', async () => {
  const w = await setUp({ storage: 'file' });
  try {
    await assertTable(w);
    await assertMcp(w);
  } finally {
    await w.t.close();
  }
});

const cluster = testPostgres();
if (cluster)
  test('PostgreSQL: the same table, the same answers (a NUL was a 500 here)', async () => {
    const w = await setUp({ database: await (await cluster()).createDatabase() });
    try {
      await assertTable(w);
      await assertMcp(w);
      assert.equal(w.errors, [], 'nothing failed unexpectedly');
    } finally {
      await w.t.close();
    }
  });

test.run();
