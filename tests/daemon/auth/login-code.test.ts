import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyToken } from '../../../daemon/auth/tokens.js';
import { createUser } from '../../helpers/accounts.js';
import { mailAfter, settledMail } from '../../helpers/mail.js';
import { createTestApp, type TestApp, type TestResponse } from '../../helpers/test-app.js';
import { codeNow, enableTotp } from '../../helpers/totp.js';

async function requestCode(t: TestApp, email: string) {
  let res: TestResponse | undefined;
  const mail = await mailAfter(t, email.toLowerCase(), async () => {
    res = await t.post('/api/auth/login/code/request', { email });
    assert.is(res.status, 200);
  });
  const token = new URL(mail.link!).searchParams.get('token')!;
  return { res: res!, mail: { ...mail, code: mail.code!, link: mail.link! }, token };
}

test('a requested code logs in once, with amr email_code; the same answer for unknown e-mails', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { res, mail } = await requestCode(t, u.user.email!.toUpperCase());
  assert.match(mail.code, /^\d{6}$/);
  assert.match(mail.link, /^http:\/\/127\.0\.0\.1:7878\/auth\/magic\?token=[A-Za-z0-9_-]{43}$/);
  const unknown = await t.post('/api/auth/login/code/request', { email: 'nobody@example.com' });
  assert.equal([unknown.status, unknown.body], [res.status, res.body]);
  assert.is((await settledMail(t, 'nobody@example.com')).length, 0);

  const login = await t.post('/api/auth/login/code/consume', { email: u.user.email, code: mail.code });
  assert.is(login.status, 200);
  assert.equal(verifyToken(t.deps.secrets.jwtSecret, login.body.token, t.clock.now())!.amr, ['email_code']);
  const again = await t.post('/api/auth/login/code/consume', { email: u.user.email, code: mail.code });
  assert.equal([again.status, again.body.code], [401, 'login_code_invalid']);
});

test('the magic link logs in once; its GET page never consumes the token (scanners prefetch links)', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { mail, token } = await requestCode(t, u.user.email!);
  const page = await t.get(new URL(mail.link).pathname + new URL(mail.link).search);
  assert.is(page.status, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  assert.is(page.headers['cache-control'], 'no-store');
  assert.is(page.headers['referrer-policy'], 'no-referrer');
  // The link opens the web console (daemon/console/), which shows the "Log in" button.
  assert.match(String(page.headers['content-security-policy']), /default-src 'none'; script-src 'self'/);
  assert.match(page.text, /<div id="root">/);
  assert.not.ok(page.text.includes(token), 'the page does not echo the token');
  const login = await t.post('/api/auth/login/magic/consume', { token });
  assert.is(login.status, 200);
  assert.equal(verifyToken(t.deps.secrets.jwtSecret, login.body.token, t.clock.now())!.amr, ['magic_link']);
  const again = await t.post('/api/auth/login/magic/consume', { token });
  assert.equal([again.status, again.body.code], [401, 'magic_link_invalid']);
});

test('using the link ends the code and using the code ends the link', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  let sent = await requestCode(t, u.user.email!);
  assert.is((await t.post('/api/auth/login/magic/consume', { token: sent.token })).status, 200);
  assert.is((await t.post('/api/auth/login/code/consume', { email: u.user.email, code: sent.mail.code })).status, 401);
  t.clock.advance(61_000);
  sent = await requestCode(t, u.user.email!);
  assert.is((await t.post('/api/auth/login/code/consume', { email: u.user.email, code: sent.mail.code })).status, 200);
  assert.is((await t.post('/api/auth/login/magic/consume', { token: sent.token })).status, 401);
});

test('SECURITY 1: 20 parallel code consumptions, 20 parallel link consumptions, and code + link together → exactly one session each', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  let sent = await requestCode(t, u.user.email!);
  const byCode = await Promise.all(
    Array.from({ length: 20 }, () =>
      t.post('/api/auth/login/code/consume', { email: u.user.email, code: sent.mail.code }),
    ),
  );
  assert.is(byCode.filter((r) => r.status === 200).length, 1);
  t.clock.advance(5 * 60_000 + 1000); // past the per-address window (30 per 5 min)
  sent = await requestCode(t, u.user.email!);
  const byLink = await Promise.all(
    Array.from({ length: 20 }, () => t.post('/api/auth/login/magic/consume', { token: sent.token })),
  );
  assert.is(byLink.filter((r) => r.status === 200).length, 1);
  t.clock.advance(5 * 60_000 + 1000); // past the per-address window (30 per 5 min)
  sent = await requestCode(t, u.user.email!);
  const mixed = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      i % 2
        ? t.post('/api/auth/login/magic/consume', { token: sent.token })
        : t.post('/api/auth/login/code/consume', { email: u.user.email, code: sent.mail.code }),
    ),
  );
  assert.is(mixed.filter((r) => r.status === 200).length, 1);
});

test('5 wrong codes burn the row (the right one then fails too); expiry after 10 minutes; code for A does not work for B', async () => {
  const t = await createTestApp();
  const a = await createUser(t);
  const b = await createUser(t);
  let sent = await requestCode(t, a.user.email!);
  const wrong = sent.mail.code === '000000' ? '111111' : '000000';
  for (let i = 0; i < 5; i++) await t.post('/api/auth/login/code/consume', { email: a.user.email, code: wrong });
  assert.is((await t.post('/api/auth/login/code/consume', { email: a.user.email, code: sent.mail.code })).status, 401);
  t.clock.advance(61_000);
  sent = await requestCode(t, a.user.email!);
  assert.is((await t.post('/api/auth/login/code/consume', { email: b.user.email, code: sent.mail.code })).status, 401);
  t.clock.advance(10 * 60_000 + 1000);
  assert.is((await t.post('/api/auth/login/code/consume', { email: a.user.email, code: sent.mail.code })).status, 401);
});

test('asking again within 60 s → 429 with Retry-After, for known and unknown e-mails alike', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  for (const email of [u.user.email!, 'ghost@example.com']) {
    assert.is((await t.post('/api/auth/login/code/request', { email })).status, 200);
    const res = await t.post('/api/auth/login/code/request', { email });
    assert.is(res.status, 429);
    assert.ok(Number(res.headers['retry-after']) > 0);
  }
});

test('with TOTP on, a login code earns only the partial step', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const { secret } = await enableTotp(t, u);
  const { mail } = await requestCode(t, u.user.email!);
  const res = await t.post('/api/auth/login/code/consume', { email: u.user.email, code: mail.code });
  assert.equal([res.status, res.body.totp_required, res.body.token], [200, true, undefined]);
  const done = await t.post('/api/auth/totp/login', {
    partial_token: res.body.partial_token,
    code: codeNow(t, secret),
  });
  assert.equal(verifyToken(t.deps.secrets.jwtSecret, done.body.token, t.clock.now())!.amr, ['email_code', 'otp']);
});

test('bad input gets a clear 400', async () => {
  const t = await createTestApp();
  assert.is((await t.post('/api/auth/login/code/request', { email: 'not-an-email' })).status, 400);
  assert.is((await t.post('/api/auth/login/code/consume', { email: 'a@example.com' })).status, 400);
  assert.is((await t.post('/api/auth/login/magic/consume', { token: 42 })).status, 400);
});

test.run();
