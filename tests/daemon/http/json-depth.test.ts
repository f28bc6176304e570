import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DomainError } from '../../../daemon/domain-error.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, valueNestsDeeperThan } from '../../../daemon/http/json-depth.js';
import { createRuntimeTestApp } from '../../helpers/runtime-app.js';
import { createTestApp } from '../../helpers/test-app.js';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

test('nestsDeeperThan counts brackets outside strings only, escaped quotes included', () => {
  assert.is(nestsDeeperThan('{"a":[1,{"b":[]}]}', 4), false);
  assert.is(nestsDeeperThan('{"a":[1,{"b":[]}]}', 3), true);
  assert.is(nestsDeeperThan(JSON.stringify({ a: '[[[[[{{{{' }), 1), false);
  assert.is(nestsDeeperThan(JSON.stringify({ a: 'quote \\" then [[[[' }), 1), false);
  assert.is(nestsDeeperThan(JSON.stringify({ a: 'back\\\\', b: [[[]]] }), 3), true);
  assert.is(nestsDeeperThan('"just a string"', 0), false);
});

test('a body nested deeper than the limit is a 400 invalid_json; at the limit it is read', async () => {
  const t = await createTestApp();
  const post = (payload: string) =>
    t.request({
      method: 'POST',
      url: '/api/dev/invites',
      headers: { ...t.operator, 'content-type': 'application/json' },
      payload,
    });
  const deep = await post(`{"a":${nested(MAX_JSON_DEPTH)}}`);
  assert.is(deep.status, 400);
  assert.is(deep.body.code, 'invalid_json');
  assert.match(deep.body.error, /deeper than 100 levels/);
  assert.is((await post(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`)).status, 201);
});

// The 500 the sweep found: a 10 000-level `result` passed `z.unknown()`, was applied to the live
// document, then JSON.stringify threw while saving — and every later write of the Company failed.
test('a deep quest result is refused and the Company keeps working', async () => {
  const t = await createRuntimeTestApp({ storage: 'file' });
  const quest = (await t.post('/api/quests', { title: 'q' })).body.quest;
  const res = await t.request({
    method: 'PATCH',
    url: `/api/quests/${quest.id}`,
    headers: { 'content-type': 'application/json' },
    payload: `{"status":"done","result":${nested(10_000)}}`,
  });
  assert.is(res.status, 400, res.text);
  const done = await t.patch(`/api/quests/${quest.id}`, { status: 'done', result: { ok: 1 } });
  assert.is(done.status, 200, done.text);
  assert.equal(done.body.quest.result, { ok: 1 });
  assert.is((await t.post('/api/agents', { name: 'still works' })).status, 201);
});

const deepValue = (levels: number) => {
  let v: unknown = [];
  for (let i = 1; i < levels; i++) v = [v];
  return v;
};

test('valueNestsDeeperThan measures parsed values the way the text check does', () => {
  assert.is(valueNestsDeeperThan(JSON.parse(nested(5)), 5), false);
  assert.is(valueNestsDeeperThan(JSON.parse(nested(5)), 4), true);
  assert.is(valueNestsDeeperThan({ a: 1, b: 'x', c: null }, 1), false);
  assert.is(valueNestsDeeperThan('scalar', 0), false);
  assert.is(valueNestsDeeperThan(deepValue(50_000), MAX_JSON_DEPTH), true); // no stack overflow
});

// The MCP endpoint parses its own body, and the scheduler and detectors call the services
// directly: the services refuse deep free-form values themselves. Through MCP, a deep quest
// result used to poison the Company's document exactly like the REST one did.
test('the services refuse deep free-form values from callers that skip the body parser', async () => {
  const t = await createRuntimeTestApp({ storage: 'file' });
  const s = t.services;
  const quest = await s.quests.create({ title: 'q' });
  const cfg = await s.events.create({ type: 'agent:thing', tool_calls: [] });
  const deep = deepValue(10_000);
  const refusals = [
    () => s.quests.update(quest.id, { result: deep }),
    () => s.events.emit({ type: 'agent:thing', content: deep }),
    () => s.events.fire(cfg.id, { content: deep }),
    () =>
      s.events.create({
        type: 'agent:thing',
        tool_calls: [{ tool: 'quests.create', args: { title: 't', extra: deep } }],
      }),
  ];
  for (const attempt of refusals) {
    const err = await attempt().then(
      () => null,
      (e: unknown) => e,
    );
    // A refusal of the input, which the HTTP layer answers with 400.
    assert.ok(err instanceof DomainError && err.refusal === 'invalid', String(err));
  }
  const done = await t.patch(`/api/quests/${quest.id}`, { status: 'done', result: { ok: 1 } });
  assert.is(done.status, 200, done.text);
});

test.run();
