import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRuntimeTestApp } from '../../helpers/runtime-app.js';

/**
 * Runtime records live in plain objects keyed by id. An id from the URL that names an
 * Object.prototype member (`__proto__`, `constructor`, `toString`) used to find that member:
 * GET answered 500 (it cannot be cloned) and POST /api/sessions/__proto__/stop wrote
 * `status: 'stopped'` onto Object.prototype — every object in the daemon then had it.
 */
const KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

test('ids naming Object.prototype members are unknown ids: 404, never 500, nothing polluted', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'ada', role: 'dev' })).body.agent;
  const before = Object.getOwnPropertyNames(Object.prototype).sort();
  for (const key of KEYS) {
    const expect = [
      ['GET', `/api/agents/${key}`, 'agent_not_found'],
      ['GET', `/api/sessions/${key}`, 'session_not_found'],
      ['POST', `/api/sessions/${key}/stop`, 'session_not_found'],
      ['POST', `/api/sessions/${key}/turns`, 'session_not_found'],
      ['PATCH', `/api/sessions/${key}`, 'session_not_found'],
      ['GET', `/api/quests/${key}`, 'quest_not_found'],
      ['PATCH', `/api/quests/${key}`, 'quest_not_found'],
      ['GET', `/api/events/${key}`, 'event_not_found'],
      ['PATCH', `/api/events/${key}`, 'event_not_found'],
      ['DELETE', `/api/events/${key}`, 'event_not_found'],
    ] as const;
    for (const [method, url, code] of expect) {
      const res = await t.request({
        method,
        url,
        headers: { 'content-type': 'application/json' },
        payload: method === 'GET' ? undefined : '{}',
      });
      assert.is(res.status, 404, `${method} ${url}: ${res.text}`);
      assert.is(res.body.code, code, `${method} ${url}`);
    }
    const sent = await t.post('/api/messages', { to: key, text: 'hi' });
    assert.is(sent.status, 404, `message to ${key}: ${sent.text}`);
    const session = await t.post('/api/sessions', { agent_id: key });
    assert.is(session.status, 404, `session for agent ${key}: ${session.text}`);
    const quest = await t.post('/api/quests', { title: 'q', session_id: key });
    assert.is(quest.status, 404, `quest in session ${key}: ${quest.text}`);
  }
  assert.equal(Object.getOwnPropertyNames(Object.prototype).sort(), before);
  assert.is(({} as { status?: unknown }).status, undefined);
  // The real records still work the same.
  assert.is((await t.get(`/api/agents/${agent.id}`)).status, 200);
});

test('a trace of an event id named like a prototype member is a 404', async () => {
  const t = await createRuntimeTestApp();
  for (const key of KEYS) {
    const res = await t.get(`/api/events/trace?event_id=${key}`);
    assert.is(res.status, 404, `${key}: ${res.text}`);
  }
});

test.run();
