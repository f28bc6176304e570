import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyToken } from '../../../../daemon/auth/tokens.js';
import { isoAt } from '../../../../daemon/clock.js';
import { createUser, type TestUser } from '../../../helpers/accounts.js';
import { waitForMail } from '../../../helpers/mail.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { createTestApp, type TestApp } from '../../../helpers/test-app.js';

/**
 * An approved pairing stands on the approving session (SECURITY.md case 19): once that session is
 * revoked, or the password is reset or changed, the poll yields no session; approving needs a
 * recent login, which a paired session never is; a paired session ends no later than its approver.
 * On the JSON data folder and on PostgreSQL (team mode's pairings and sessions live there).
 */
const backends: Record<string, () => Promise<TestApp>> = { 'JSON store': () => createTestApp({ storage: 'file' }) };
const cluster = testPostgres();
if (cluster) backends['team mode'] = async () => createTestApp({ database: await (await cluster()).createDatabase() });

const MIN = 60_000;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const NEW_PASSWORD = 'a brand new long password';

for (const [name, open] of Object.entries(backends)) {
  const test = suite(`pairing approval lifecycle (${name})`);
  let t: TestApp;
  test.before(async () => void (t = await open()));
  test.after(async () => t?.close());
  // Past the per-address start throttle (10 per 5 min), so each case starts unthrottled.
  test.before.each(() => t.clock.advance(6 * MIN));

  const claims = (token: string) => verifyToken(t.deps.secrets.jwtSecret, token, t.clock.now())!;
  /** Starts a pairing and approves it with `auth`; the device code the CLI would hold. */
  const approved = async (auth: Record<string, string>) => {
    const res = await t.post('/api/auth/pairing/start', {});
    const ok = await t.post('/api/auth/pairing/approve', { user_code: res.body.user_code }, auth);
    assert.is(ok.status, 200, ok.text);
    return res.body.device_code as string;
  };
  const poll = (device_code: string) => {
    t.clock.advance(2000); // the CLI's interval: faster is a 429
    return t.post('/api/auth/pairing/poll', { device_code });
  };
  /** The poll refuses, with no token, and the pairing is spent; the user has only `keep` live. */
  const refused = async (device: string, u: TestUser, keep: string[]) => {
    const res = await poll(device);
    assert.equal([res.status, res.body.code, res.body.token], [403, 'pairing_approval_ended', undefined], res.text);
    assert.match(res.body.error, /approved this pairing has ended/);
    assert.is((await poll(device)).body.code, 'pairing_not_found');
    const live = await t.deps.stores.sessions.listActive(u.user.id, isoAt(t.clock.now()));
    assert.equal(
      live.map((s) => s.id),
      keep,
      'no session came of the pairing',
    );
  };

  test('the approving session revoked (logged out) before the poll: no session', async () => {
    const u = await createUser(t);
    const device = await approved(u.auth);
    assert.is((await t.post('/api/auth/logout', {}, u.auth)).status, 200);
    await refused(device, u, []);
  });

  test('a password reset after the approval: no session', async () => {
    const u = await createUser(t);
    const device = await approved(u.auth);
    await t.post('/api/auth/forgot-password', { email: u.user.email });
    const link = new URL((await waitForMail(t, u.user.email!)).link!).searchParams.get('token');
    assert.is((await t.post('/api/auth/reset-password', { token: link, password: NEW_PASSWORD })).status, 200);
    await refused(device, u, []);
  });

  test("a password change after the approval keeps the changer's session, and still yields no session", async () => {
    const u = await createUser(t);
    const device = await approved(u.auth);
    const change = { current_password: u.password, new_password: NEW_PASSWORD };
    assert.is((await t.post('/api/auth/change-password', change, u.auth)).status, 200);
    assert.is((await t.get('/api/me', u.auth)).status, 200, "the changer's own session lives on");
    await refused(device, u, [claims(u.token).sid]);
    // The control: approved after the change, a pairing works.
    const after = await poll(await approved(u.auth));
    assert.is(after.body.status, 'approved', after.text);
    assert.is((await t.get('/api/me', bearer(after.body.token))).status, 200);
  });

  test('a reset racing the collection, between its check and the new session, still yields none', async () => {
    const u = await createUser(t);
    const device = await approved(u.auth);
    const sessions = t.deps.stores.sessions;
    const create = sessions.create;
    // The reset lands after the poll checked the approver and before its session exists.
    sessions.create = async (s) => {
      sessions.create = create;
      await t.deps.stores.users.setPassword(u.user.id, 'scrypt$x', isoAt(t.clock.now()), null);
      return create(s);
    };
    await refused(device, u, []);
  });

  test('approving needs a login from the last 10 minutes (403 reauth_required); a paired session is none', async () => {
    const u = await createUser(t);
    t.clock.advance(10 * MIN + 1000);
    const res = await t.post('/api/auth/pairing/start', {});
    const stale = await t.post('/api/auth/pairing/approve', { user_code: res.body.user_code }, u.auth);
    assert.equal([stale.status, stale.body.code], [403, 'reauth_required'], stale.text);
    assert.match(stale.body.error, /log in again/i);
    assert.is((await poll(res.body.device_code)).body.status, 'pending', 'the pairing waits for a fresh approval');

    const login = await t.post('/api/auth/login', { email: u.user.email, password: u.password });
    assert.is(
      (await t.post('/api/auth/pairing/approve', { user_code: res.body.user_code }, bearer(login.body.token))).status,
      200,
    );
    t.clock.advance(8 * MIN);
    const paired = (await poll(res.body.device_code)).body.token as string;
    assert.ok(paired);
    // The paired session is two seconds old, but its login is over 10 minutes old: not fresh.
    t.clock.advance(2 * MIN + 1000);
    const again = await t.post('/api/auth/pairing/start', {});
    const chained = await t.post('/api/auth/pairing/approve', { user_code: again.body.user_code }, bearer(paired));
    assert.equal([chained.status, chained.body.code], [403, 'reauth_required']);
    // The same rule guards the other recent-login actions (their code unchanged).
    const totp = await t.post('/api/auth/totp/enroll', {}, bearer(paired));
    assert.equal([totp.status, totp.body.code], [403, 'recent_login_required']);
  });

  test("a paired session ends with its approver's (row and JWT); chained pairings never outlive the first login", async () => {
    const u = await createUser(t);
    const first = (await t.deps.stores.sessions.find(claims(u.token).sid))!;
    t.clock.advance(5 * MIN);
    const one = (await poll(await approved(u.auth))).body;
    t.clock.advance(3 * MIN);
    const two = (await poll(await approved(bearer(one.token)))).body;
    for (const paired of [one, two]) {
      const row = (await t.deps.stores.sessions.find(paired.session_id))!;
      assert.is(row.expires_at, first.expires_at);
      assert.is(row.auth_at, first.auth_at, 'the login time is inherited');
      assert.ok(claims(paired.token).exp <= Date.parse(first.expires_at) / 1000);
      assert.ok(claims(paired.token).exp <= claims(u.token).exp);
    }
    t.clock.set(Date.parse(first.expires_at) - 1000);
    assert.is((await t.get('/api/me', bearer(two.token))).status, 200);
    t.clock.advance(1000);
    for (const token of [u.token, one.token, two.token]) assert.is((await t.get('/api/me', bearer(token))).status, 401);
  });

  test.run();
}
