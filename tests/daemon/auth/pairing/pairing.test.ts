import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyToken } from '../../../../daemon/auth/tokens.js';
import { approvePairing, findPendingPairing, startPairing } from '../../../../daemon/auth/pairing/pairing.js';
import { pollPairing } from '../../../../daemon/auth/pairing/pairing-poll.js';
import { createMemoryPairingStore } from '../../../../daemon/store/pairing-store.js';
import { createUser } from '../../../helpers/accounts.js';
import { createTestApp, type TestApp } from '../../../helpers/test-app.js';

const start = async (t: TestApp) => {
  const res = await t.post('/api/auth/pairing/start', { client: 'svc CLI on test' }, { 'user-agent': 'svc-cli/test' });
  assert.is(res.status, 201, res.text);
  return res.body as {
    device_code: string;
    user_code: string;
    verification_url: string;
    verification_url_complete: string;
    expires_in: number;
    interval: number;
  };
};
const poll = (t: TestApp, device_code: string) => {
  t.clock.advance(2000); // the CLI's interval: a faster poll is a 429
  return t.post('/api/auth/pairing/poll', { device_code }, { 'user-agent': 'svc-cli/test' });
};

test('start → the console page (localhost, code in the fragment) → approve → the CLI collects its OWN session, once', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const p = await start(t);
  assert.match(p.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  assert.is(p.verification_url, 'http://localhost:7878/#/pair');
  assert.is(p.verification_url_complete, `http://localhost:7878/#/pair/${p.user_code}`);
  assert.equal([p.expires_in, p.interval], [600, 2]);
  assert.equal((await poll(t, p.device_code)).body, {
    ok: true,
    status: 'pending',
    expires_at: new Date(t.clock.now() - 2000 + 600_000).toISOString(),
  });

  // Case and dashes do not matter when typed; the page sees who asked.
  const look = await t.post(
    '/api/auth/pairing/lookup',
    { user_code: p.user_code.toLowerCase().replace('-', ' ') },
    u.auth,
  );
  assert.is(look.status, 200, look.text);
  assert.equal(
    [look.body.pairing.user_code, look.body.pairing.client, look.body.pairing.user_agent],
    [p.user_code, 'svc CLI on test', 'svc-cli/test'],
  );
  assert.is((await t.post('/api/auth/pairing/approve', { user_code: p.user_code }, u.auth)).status, 200);
  // Single use: a second approval finds nothing pending.
  assert.is(
    (await t.post('/api/auth/pairing/approve', { user_code: p.user_code }, u.auth)).body.code,
    'pairing_not_found',
  );

  const got = await poll(t, p.device_code);
  assert.is(got.body.status, 'approved');
  assert.is.not(got.body.token, u.token);
  const claims = verifyToken(t.deps.secrets.jwtSecret, got.body.token, t.clock.now())!;
  assert.equal([claims.user_id, claims.typ, claims.amr], [u.user.id, 'session', ['pairing', 'pwd']]);
  // The session record says it came from a pairing, which factor approved it, and that it is the CLI's.
  const row = (await t.deps.stores.sessions.find(got.body.session_id))!;
  assert.equal([row.method, row.user_agent], [['pairing', 'pwd'], 'svc-cli/test']);
  assert.is((await t.get('/api/me', { authorization: `Bearer ${got.body.token}` })).status, 200);
  // Collected once: the device code is now worthless.
  assert.equal(
    [(await poll(t, p.device_code)).status, (await poll(t, p.device_code)).body.code],
    [404, 'pairing_not_found'],
  );
});

test('twenty racing polls of an approved pairing yield exactly one session (the collection is one check-and-set)', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  // The service directly: through the routes, the 1-per-second poll throttle would refuse 19 before any race.
  const store = createMemoryPairingStore();
  const ctx = { get: () => 'svc-cli/test', ip: '127.0.0.1' };
  const p = await startPairing(t.deps, store, ctx, null);
  const record = (await findPendingPairing(t.deps, store, p.user_code))!;
  const session = (await t.deps.stores.sessions.find(
    verifyToken(t.deps.secrets.jwtSecret, u.token, t.clock.now())!.sid,
  ))!;
  assert.ok(await approvePairing(t.deps, store, record, { session, user: u.user }));
  const results = await Promise.all(Array.from({ length: 20 }, () => pollPairing(t.deps, store, ctx, p.device_code)));
  assert.is(results.filter((r) => r.state === 'approved').length, 1);
  assert.is(results.filter((r) => r.state === 'gone').length, 19);
});

test('deny: the CLI gets 403 pairing_denied and no session; an expired code is refused; the code alone is useless', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const denied = await start(t);
  assert.is((await t.post('/api/auth/pairing/deny', { user_code: denied.user_code }, u.auth)).status, 200);
  const res = await poll(t, denied.device_code);
  assert.equal([res.status, res.body.code], [403, 'pairing_denied']);

  const late = await start(t);
  t.clock.advance(10 * 60_000 + 1);
  // A user who just logged in (approving needs a recent login) finds the code expired.
  const fresh = await createUser(t);
  assert.is(
    (await t.post('/api/auth/pairing/approve', { user_code: late.user_code }, fresh.auth)).body.code,
    'pairing_not_found',
  );
  assert.is((await poll(t, late.device_code)).body.code, 'pairing_not_found');

  const p = await start(t);
  // Without a logged-in user, the code opens nothing; an unverified signup session cannot approve either.
  assert.is((await t.post('/api/auth/pairing/approve', { user_code: p.user_code })).status, 401);
  const unverified = await createUser(t, { verified: false });
  assert.is((await t.post('/api/auth/pairing/approve', { user_code: p.user_code }, unverified.auth)).status, 403);
  assert.is((await t.post('/api/auth/pairing/poll', { device_code: 'x'.repeat(43) })).body.code, 'pairing_not_found');
});

test('rate limits: starts per address, polls faster than once a second, and guessing codes locks the account', async () => {
  const t = await createTestApp();
  for (let i = 0; i < 10; i++) await start(t);
  const over = await t.post('/api/auth/pairing/start', {});
  assert.equal([over.status, over.headers['retry-after'] !== undefined], [429, true]);

  const t2 = await createTestApp();
  const p = await start(t2);
  await poll(t2, p.device_code);
  assert.is((await t2.post('/api/auth/pairing/poll', { device_code: p.device_code })).status, 429);

  const u = await createUser(t2);
  for (let i = 0; i < 10; i++)
    assert.is((await t2.post('/api/auth/pairing/lookup', { user_code: 'BBBB-BBBB' }, u.auth)).status, 404);
  // Locked now: even the right code is refused for 15 minutes.
  assert.is((await t2.post('/api/auth/pairing/lookup', { user_code: p.user_code }, u.auth)).status, 429);
});

test.run();
