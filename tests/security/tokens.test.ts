import { createHmac } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { totpCodeAt } from '../../daemon/auth/totp/totp-codes.js';
import { enableTotp } from '../helpers/totp.js';
import { PROOF_PASSWORD } from '../proof/lib/accounts.js';
import { lastMail, mailCount, PAST_THROTTLES, securityModes, successes, type Remote } from './remote.js';

/** SECURITY.md attack cases 1 (partial token), 5, 7, 8, 9 and 11, against a real daemon process. */
for (const mode of securityModes()) {
  const test = suite(`SECURITY.md attack cases 1 (partial token), 5, 7, 8, 9 and 11 (${mode.name})`);
  let r: Remote;
  test.before(async () => void (r = await mode.start()));
  test.after(async () => r?.stop());
  test.before.each(() => r.advance(PAST_THROTTLES));

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const sign = (header: unknown, payload: unknown, secret: Buffer) => {
    const input = `${b64(header)}.${b64(payload)}`;
    return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  };
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  const login = (email: string) => r.app.post('/api/auth/login', { email, password: PROOF_PASSWORD });

  test('case 5: an unverified token gets 403 on keys, sessions and profile changes; verify, resend and reading one own profile accept it', async () => {
    const invite = (await r.app.post('/api/dev/invites', {}, r.app.operator)).body.code;
    const token = (
      await r.app.post('/api/auth/signup', {
        email: 'unverified@example.com',
        password: PROOF_PASSWORD,
        invite_code: invite,
      })
    ).body.token;
    for (const [method, url] of [
      ['GET', '/api/keys'],
      ['POST', '/api/keys'],
      ['GET', '/api/auth/sessions'],
      ['POST', '/api/auth/update-profile'],
    ]) {
      const res =
        method === 'GET'
          ? await r.app.get(url!, bearer(token))
          : await r.app.post(url!, { name: 'x', root: 'x', display_name: 'x' }, bearer(token));
      assert.is(res.status, 403, `${method} ${url}: ${res.text}`);
    }
    assert.is((await r.app.get('/api/me', bearer(token))).status, 200);
    r.advance(61_000);
    assert.is((await r.app.post('/api/auth/resend-code', {}, bearer(token))).status, 200);
  });

  test('cases 1 and 7: 20 parallel uses of one partial token: one succeeds; a TOTP code reused in its step, or ±2 steps off, is refused', async () => {
    const u = await r.signUpVerified('totp-user@example.com');
    const { secret } = await enableTotp(r.app, { auth: u.auth } as never);
    const partial = (await login(u.email)).body.partial_token as string;
    const code = totpCodeAt(secret, r.app.clock.now());
    assert.is(
      successes(
        await Promise.all(
          Array.from({ length: 20 }, () => r.app.post('/api/auth/totp/login', { partial_token: partial, code })),
        ),
      ),
      1,
    );
    const again = (await login(u.email)).body.partial_token;
    assert.is(
      (await r.app.post('/api/auth/totp/login', { partial_token: again, code })).status,
      401,
      'the same code in the same step',
    );
    for (const steps of [-2, 2]) {
      const p = (await login(u.email)).body.partial_token;
      assert.is(
        (
          await r.app.post('/api/auth/totp/login', {
            partial_token: p,
            code: totpCodeAt(secret, r.app.clock.now() + steps * 30_000),
          })
        ).status,
        401,
        `${steps} steps`,
      );
    }
    assert.is((await r.app.get('/api/keys', bearer(partial))).status, 401, 'a partial token on a full-session route');
  });

  test('case 8: alg none, another secret, no exp, expired, an edited payload, a crit header: 401 each', async () => {
    const u = await r.signUpVerified('forger@example.com');
    const secret = await r.jwtSecret();
    const claims = claimsOf(u.token);
    const now = Math.floor(r.app.clock.now() / 1000);
    const forged = [
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      sign({ alg: 'HS256', typ: 'JWT' }, claims, Buffer.alloc(32, 1)),
      sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, exp: undefined }, secret),
      sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, exp: now - 1 }, secret),
      `${u.token.split('.')[0]}.${b64({ ...claims, user_id: 'usr_someone_else' })}.${u.token.split('.')[2]}`,
      sign({ alg: 'HS256', typ: 'JWT', crit: ['exp'] }, claims, secret),
    ];
    assert.is(
      (await r.app.get('/api/keys', bearer(sign({ alg: 'HS256', typ: 'JWT' }, claims, secret)))).status,
      200,
      'the control: well signed',
    );
    for (const token of forged)
      assert.is((await r.app.get('/api/keys', bearer(token))).status, 401, token.slice(0, 40));
  });

  test('case 9: a revoked session is refused at once; revoke-others keeps only the current; a reset kills all; another user session id is a 404', async () => {
    const u = await r.signUpVerified('sessions@example.com');
    const [a, b, c] = [
      (await login(u.email)).body.token,
      (await login(u.email)).body.token,
      (await login(u.email)).body.token,
    ];
    assert.is((await r.app.post('/api/auth/sessions/revoke', { session_id: claimsOf(a).sid }, bearer(b))).status, 200);
    assert.is((await r.app.get('/api/keys', bearer(a))).status, 401);
    assert.is((await r.app.post('/api/auth/sessions/revoke-others', {}, bearer(b))).status, 200);
    assert.is((await r.app.get('/api/keys', bearer(c))).status, 401);
    assert.is((await r.app.get('/api/keys', bearer(b))).status, 200);
    const other = await r.signUpVerified('sessions-other@example.com');
    assert.is(
      (await r.app.post('/api/auth/sessions/revoke', { session_id: claimsOf(other.token).sid }, bearer(b))).status,
      404,
    );
    assert.is((await r.app.get('/api/keys', other.auth)).status, 200, 'no effect on the other user');
    const seen = await mailCount(r, u.email);
    assert.is((await r.app.post('/api/auth/forgot-password', { email: u.email })).status, 200);
    const token = new URL((await lastMail(r, u.email, seen)).link!).searchParams.get('token');
    assert.is(
      (await r.app.post('/api/auth/reset-password', { token, password: 'a brand new password 42' })).status,
      200,
    );
    assert.is((await r.app.get('/api/keys', bearer(b))).status, 401, 'a reset kills every session');
  });

  test('case 11: changing the e-mail to an address in use takes nothing over; afterwards the old address cannot log in', async () => {
    const victim = await r.signUpVerified('victim@example.com');
    const u = await r.signUpVerified('mover@example.com');
    assert.is(
      (await r.app.post('/api/me/email/change/begin', { new_email: victim.email, password: PROOF_PASSWORD }, u.auth))
        .status,
      200,
    );
    const code = (await lastMail(r, victim.email)).code;
    assert.not.ok(
      (await r.app.post('/api/me/email/change/finish', { code: code ?? '000000' }, u.auth)).status === 200,
      'no takeover',
    );
    assert.is((await login(victim.email)).status, 200, 'the victim still logs in');
    r.advance(PAST_THROTTLES);
    assert.is(
      (
        await r.app.post(
          '/api/me/email/change/begin',
          { new_email: 'moved@example.com', password: PROOF_PASSWORD },
          u.auth,
        )
      ).status,
      200,
    );
    const fresh = (await lastMail(r, 'moved@example.com')).code;
    assert.is((await r.app.post('/api/me/email/change/finish', { code: fresh }, u.auth)).status, 200);
    assert.is((await login('mover@example.com')).status, 401, 'the old address no longer logs in');
    assert.is((await login('moved@example.com')).status, 200);
  });

  test.run();
}
