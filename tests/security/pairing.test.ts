import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PROOF_PASSWORD } from '../proof/lib/accounts.js';
import { lastMail, mailCount, PAST_THROTTLES, securityModes, type Remote } from './remote.js';

/** SECURITY.md attack case 19 (device pairing, `svc login --web`), against a real daemon process. */
for (const mode of securityModes()) {
  const test = suite(`SECURITY.md attack case 19 (pairing) (${mode.name})`);
  let r: Remote;
  test.before(async () => void (r = await mode.start()));
  test.after(async () => r?.stop());
  test.before.each(() => r.advance(PAST_THROTTLES));

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  const login = async (email: string, password = PROOF_PASSWORD) => {
    const res = await r.app.post('/api/auth/login', { email, password });
    assert.is(res.status, 200, res.text);
    return res.body.token as string;
  };
  /** A pairing started as the CLI starts it, approved with `token`: the device code the CLI holds. */
  const approvedWith = async (token: string) => {
    const started = (await r.app.post('/api/auth/pairing/start', { client: 'attack run' })).body;
    const ok = await r.app.post('/api/auth/pairing/approve', { user_code: started.user_code }, bearer(token));
    assert.is(ok.status, 200, ok.text);
    return started.device_code as string;
  };
  const poll = (device_code: string) => {
    r.advance(2000); // past the one-poll-a-second throttle
    return r.app.post('/api/auth/pairing/poll', { device_code });
  };
  const yieldsNoSession = async (device: string) => {
    const res = await poll(device);
    assert.equal([res.status, res.body.code, res.body.token], [403, 'pairing_approval_ended', undefined], res.text);
    assert.is((await poll(device)).status, 404, 'and the pairing is spent');
  };
  const collect = async (device: string) => {
    const res = await poll(device);
    assert.is(res.body.status, 'approved', res.text);
    return res.body.token as string;
  };

  test('case 19: approve with session S, then revoke S: the poll yields no session', async () => {
    const u = await r.signUpVerified('pair-revoke@example.com');
    const s = await login(u.email);
    const device = await approvedWith(s);
    const revoked = await r.app.post('/api/auth/sessions/revoke', { session_id: claimsOf(s).sid }, u.auth);
    assert.is(revoked.status, 200, revoked.text);
    await yieldsNoSession(device);
  });

  test('case 19: approve with S, then change the password through S (S lives on): the poll yields no session', async () => {
    const u = await r.signUpVerified('pair-change@example.com');
    const s = await login(u.email);
    const device = await approvedWith(s);
    const change = { current_password: PROOF_PASSWORD, new_password: 'a brand new password 42' };
    assert.is((await r.app.post('/api/auth/change-password', change, bearer(s))).status, 200);
    assert.is((await r.app.get('/api/me', bearer(s))).status, 200);
    await yieldsNoSession(device);
  });

  test('case 19: approve with S, then reset the password: the poll yields no session', async () => {
    const u = await r.signUpVerified('pair-reset@example.com');
    const device = await approvedWith(await login(u.email));
    const seen = await mailCount(r, u.email);
    assert.is((await r.app.post('/api/auth/forgot-password', { email: u.email })).status, 200);
    const token = new URL((await lastMail(r, u.email, seen)).link!).searchParams.get('token');
    const reset = await r.app.post('/api/auth/reset-password', { token, password: 'a brand new password 42' });
    assert.is(reset.status, 200, reset.text);
    await yieldsNoSession(device);
  });

  test('case 19: approving with a login older than 10 minutes is a 403 reauth_required; a fresh login approves', async () => {
    const u = await r.signUpVerified('pair-stale@example.com');
    r.advance(10 * 60_000 + 1000);
    const started = (await r.app.post('/api/auth/pairing/start', {})).body;
    const stale = await r.app.post('/api/auth/pairing/approve', { user_code: started.user_code }, u.auth);
    assert.equal([stale.status, stale.body.code], [403, 'reauth_required'], stale.text);
    assert.match(stale.body.error, /log in again/i);
    const fresh = await login(u.email);
    const ok = await r.app.post('/api/auth/pairing/approve', { user_code: started.user_code }, bearer(fresh));
    assert.is(ok.status, 200, ok.text);
    assert.is((await r.app.get('/api/me', bearer(await collect(started.device_code)))).status, 200);
  });

  test("case 19: the paired session never outlives the approver's, chained or not", async () => {
    const u = await r.signUpVerified('pair-chain@example.com');
    const first = await login(u.email);
    r.advance(5 * 60_000);
    const one = await collect(await approvedWith(first));
    r.advance(3 * 60_000);
    const two = await collect(await approvedWith(one));
    const sessions = (await r.app.get('/api/auth/sessions', bearer(first))).body.sessions as Array<{
      id: string;
      expires_at: string;
    }>;
    const expiry = (token: string) => sessions.find((s) => s.id === claimsOf(token).sid)!.expires_at;
    for (const paired of [one, two]) {
      assert.ok(expiry(paired) <= expiry(first), `${expiry(paired)} > ${expiry(first)}`);
      assert.ok(claimsOf(paired).exp <= claimsOf(first).exp);
    }
    // Past the first login's 24 h (the paired sessions began 5 and 8 minutes later): all ended.
    r.advance(24 * 3600_000 - 8 * 60_000 + 60_000);
    for (const token of [first, one, two]) assert.is((await r.app.get('/api/me', bearer(token))).status, 401);
  });

  test.run();
}
