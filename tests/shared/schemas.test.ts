import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as z from 'zod/mini';
import { loginBody, profileBody, signupBody } from '../../shared/schemas/auth.js';
import { loginCodeBody, pairingPollBody } from '../../shared/schemas/auth-factors.js';
import { devMailQuery, devTierBody } from '../../shared/schemas/dev.js';
import { keyCreateBody } from '../../shared/schemas/key-create.js';
import { sessionAppendBody, sessionChangeBody } from '../../shared/schemas/runtime.js';
import { createRuntimeTestApp } from '../helpers/runtime-app.js';
import { createTestApp } from '../helpers/test-app.js';

/** What the daemon's validate answers for input the schema refuses: `field: message` of the first issue. */
function expectedError(schema: z.ZodMiniType, input: unknown): string {
  const result = z.safeParse(schema, input);
  if (result.success) throw new Error(`the schema accepted ${JSON.stringify(input)}`);
  const [issue] = result.error.issues;
  return `${issue?.path.join('.') || '(body)'}: ${issue?.message}`;
}

test('the auth and dev routes refuse bad input with the shared schemas’ own words (one contract)', async () => {
  const t = await createTestApp();
  const cases: Array<[string, z.ZodMiniType, unknown, Record<string, string>?]> = [
    ['/api/auth/signup', signupBody, { email: 'not-an-address', password: 'x', invite_code: 'c' }],
    ['/api/auth/signup', signupBody, { email: 'a@example.com', password: 'long enough password', invite_code: '  ' }],
    ['/api/auth/login', loginBody, { email: 'a@example.com', password: '' }],
    ['/api/auth/login/code/consume', loginCodeBody, { email: 'a@example.com', code: 'x'.repeat(33) }],
    ['/api/auth/pairing/poll', pairingPollBody, { device_code: '' }],
    ['/api/dev/tier', devTierBody, { email: 'a@example.com', tier: 'gold' }, t.operator],
  ];
  for (const [path, schema, body, headers] of cases) {
    const res = await t.post(path, body, headers);
    assert.is(res.status, 400, `${path} ${JSON.stringify(body)}`);
    assert.is(res.body.code, 'validation_failed');
    assert.is(res.body.error, expectedError(schema, body), path);
  }
  const query = { to: ' ' };
  const mail = await t.get('/api/dev/mail?to=%20', t.operator);
  assert.is(mail.status, 400);
  assert.is(mail.body.error, expectedError(devMailQuery, query));
});

test('the runtime routes validate with the shared schemas too', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  const session = (await t.post('/api/sessions', { agent_id: agent.id })).body.session;
  const append = { text: '', from: 'user' };
  const res = await t.post(`/api/sessions/${session.id}/messages`, append);
  assert.is(res.status, 400);
  assert.is(res.body.error, expectedError(sessionAppendBody, append));
  const change = { context_budget: 1.5 };
  const changed = await t.post(`/api/sessions/${session.id}`, change);
  assert.is(changed.status, 400);
  assert.is(changed.body.error, expectedError(sessionChangeBody, change));
});

test('the shared schemas keep their texts and defaults (what docs and clients rely on)', () => {
  assert.is(expectedError(keyCreateBody, { name: 'k' }), 'root: root is required (a Company name or id)');
  assert.is(expectedError(profileBody, {}), '(body): send at least one of display_name, timezone, locale');
  assert.is(expectedError(profileBody, { displayname: 'x' }).startsWith('(body): '), true);
  assert.equal(z.parse(sessionAppendBody, { text: 'hi' }), { text: 'hi', from: 'user', start_turn: false });
  assert.equal(z.parse(keyCreateBody, { root: ' Acme ', name: ' ci ' }), { root: 'Acme', name: 'ci' });
});

test.run();
