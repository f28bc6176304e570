import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PROOF_PASSWORD } from '../proof/lib/accounts.js';
import type { TestResponse } from '../helpers/test-app.js';
import { lastMail, mailCount, PAST_THROTTLES, securityModes, statusesOf, successes, type Remote } from './remote.js';

/** SECURITY.md attack cases 1 (codes and links), 2, 3, 4, 6 and 10, against a real daemon process. */
for (const mode of securityModes()) {
  const test = suite(`SECURITY.md attack cases 1 (codes and links), 2, 3, 4, 6 and 10 (${mode.name})`);
  let r: Remote;
  test.before(async () => void (r = await mode.start()));
  test.after(async () => r?.stop());
  test.before.each(() => r.advance(PAST_THROTTLES));

  const invite = async () => (await r.app.post('/api/dev/invites', {}, r.app.operator)).body.code as string;
  const signUp = async (email: string) => {
    const res = await r.app.post('/api/auth/signup', { email, password: PROOF_PASSWORD, invite_code: await invite() });
    assert.is(res.status, 200, res.text);
    return { token: res.body.token as string, code: (await lastMail(r, email)).code! };
  };
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  test('case 1: 20 parallel verifications, login-code and magic-link consumptions with the right value: exactly one succeeds', async () => {
    const race = async (send: () => Promise<TestResponse>) => {
      const answers = await Promise.all(Array.from({ length: 20 }, send));
      assert.is(successes(answers), 1, statusesOf(answers));
    };
    const { code } = await signUp('race-verify@example.com');
    await race(() => r.app.post('/api/auth/verify', { email: 'race-verify@example.com', code }));
    const u = await r.signUpVerified('race-login@example.com');
    let seen = await mailCount(r, u.email);
    assert.is((await r.app.post('/api/auth/login/code/request', { email: u.email })).status, 200);
    const byCode = await lastMail(r, u.email, seen);
    await race(() => r.app.post('/api/auth/login/code/consume', { email: u.email, code: byCode.code }));
    r.advance(61_000);
    seen = await mailCount(r, u.email);
    assert.is((await r.app.post('/api/auth/login/code/request', { email: u.email })).status, 200);
    const token = new URL((await lastMail(r, u.email, seen)).link!).searchParams.get('token');
    await race(() => r.app.post('/api/auth/login/magic/consume', { token }));
  });

  test('case 2: five wrong codes burn the code; the right one is then refused and a resend is needed', async () => {
    const { code } = await signUp('burn@example.com');
    for (let i = 0; i < 5; i++)
      assert.is((await r.app.post('/api/auth/verify', { email: 'burn@example.com', code: wrong(code) })).status, 400);
    assert.is((await r.app.post('/api/auth/verify', { email: 'burn@example.com', code })).status, 400);
    r.advance(61_000);
    const seen = await mailCount(r, 'burn@example.com');
    assert.is((await r.app.post('/api/auth/resend-code', { email: 'burn@example.com' })).status, 200);
    const fresh = (await lastMail(r, 'burn@example.com', seen)).code!;
    assert.is((await r.app.post('/api/auth/verify', { email: 'burn@example.com', code: fresh })).status, 200);
  });

  test('case 3: the right code after 10 min + 1 s is expired; the right code twice: the second is refused', async () => {
    const { code } = await signUp('late@example.com');
    r.advance(10 * 60_000 + 1_000);
    assert.is((await r.app.post('/api/auth/verify', { email: 'late@example.com', code })).status, 400);
    r.advance(PAST_THROTTLES);
    const second = await signUp('twice@example.com');
    assert.is((await r.app.post('/api/auth/verify', { email: 'twice@example.com', code: second.code })).status, 200);
    assert.is((await r.app.post('/api/auth/verify', { email: 'twice@example.com', code: second.code })).status, 400);
  });

  test('case 4: a resend right after signup is a 429 with Retry-After; after the window the new code works and the old one does not', async () => {
    const { code: old } = await signUp('resend@example.com');
    const now = await r.app.post('/api/auth/resend-code', { email: 'resend@example.com' });
    assert.is(now.status, 429);
    assert.ok(Number(now.headers['retry-after']) > 0);
    r.advance(61_000);
    const seen = await mailCount(r, 'resend@example.com');
    assert.is((await r.app.post('/api/auth/resend-code', { email: 'resend@example.com' })).status, 200);
    const fresh = (await lastMail(r, 'resend@example.com', seen)).code!;
    assert.is.not(fresh, old);
    assert.is((await r.app.post('/api/auth/verify', { email: 'resend@example.com', code: old })).status, 400);
    assert.is((await r.app.post('/api/auth/verify', { email: 'resend@example.com', code: fresh })).status, 200);
  });

  test('case 6: a wrong password and an unknown e-mail get the same status and body', async () => {
    const u = await r.signUpVerified('known@example.com');
    const strip = (b: any) => ({ ...b, request_id: undefined });
    const known = await r.app.post('/api/auth/login', { email: u.email, password: 'not the password at all' });
    const unknown = await r.app.post('/api/auth/login', {
      email: 'nobody-here@example.com',
      password: 'not the password at all',
    });
    assert.is(known.status, 401);
    assert.equal([known.status, strip(known.body)], [unknown.status, strip(unknown.body)]);
  });

  test('case 10: a code issued for e-mail A, used with e-mail B, is refused', async () => {
    const a = await signUp('owner-a@example.com');
    await signUp('owner-b@example.com');
    assert.is((await r.app.post('/api/auth/verify', { email: 'owner-b@example.com', code: a.code })).status, 400);
    assert.is((await r.app.post('/api/auth/verify', { email: 'owner-a@example.com', code: a.code })).status, 200);
  });

  test.run();
}
