import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp, serveTestApp, type TestApp } from '../../helpers/test-app.js';
import { createFakeCli } from '../../helpers/cli.js';
import { newInvite } from '../../helpers/signup.js';
import { createUser } from '../../helpers/accounts.js';
import { waitForMail } from '../../helpers/mail.js';
import { runSignup } from '../../../cli/commands/auth/signup.js';
import { runVerify, runResend } from '../../../cli/commands/auth/verify.js';
import { runLogin } from '../../../cli/commands/auth/login.js';
import { runLogout } from '../../../cli/commands/auth/logout.js';
import { runWhoami } from '../../../cli/commands/auth/whoami.js';
import { ApiRequestError, AuthRequiredError, UsageError } from '../../../cli/errors.js';

const PASSWORD = 'correct horse battery staple';

async function served(): Promise<{ t: TestApp; url: string; close(): Promise<void> }> {
  const t = await createTestApp();
  const server = await serveTestApp(t);
  return { t, ...server };
}

test('signup → verify --from-mail → whoami → logout, with the token kept in the credential store', async () => {
  const { t, url, close } = await served();
  try {
    const env = { SVC_OPERATOR_TOKEN: t.deps.secrets.operatorToken };
    const cli = createFakeCli({ url, env, stdin: `${PASSWORD}\n` });
    await runSignup({ email: 'cli@example.com', invite: await newInvite(t), passwordStdin: true }, cli.ctx);
    assert.match(cli.stdout(), 'Signed up as cli@example.com');
    const stored = [...cli.credentials.values()][0]!;
    assert.ok(stored.split('.').length === 3, 'the JWT went to the credential store');

    await runVerify({ fromMail: true }, cli.ctx);
    assert.match(cli.stdout(), 'Verified cli@example.com');
    assert.is.not([...cli.credentials.values()][0], stored, 'the verified token replaced the signup one');
    const user = (await t.deps.stores.users.findByEmail('cli@example.com'))!;
    assert.match(
      (await t.deps.stores.sessions.listActive(user.id, new Date(t.clock.now()).toISOString()))[0]!.user_agent ?? '',
      /^svc\/\S+ node\//,
    );

    await runWhoami({}, cli.ctx);
    assert.match(cli.stdout(), 'cli@example.com');
    assert.match(cli.stdout(), 'verified: yes');

    const token = [...cli.credentials.values()][0]!;
    await runLogout({}, cli.ctx);
    assert.is(cli.credentials.size, 0);
    assert.is((await t.get('/api/me', { authorization: `Bearer ${token}` })).status, 401, 'revoked on the server');
    await runLogout({}, cli.ctx); // twice is fine
    try {
      await runWhoami({}, cli.ctx);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, AuthRequiredError);
    }
  } finally {
    await close();
  }
});

test('login with --password-stdin; --json output never carries the token', async () => {
  const { t, url, close } = await served();
  try {
    await createUser(t, { email: 'in@example.com', password: PASSWORD });
    const cli = createFakeCli({ url, json: true, stdin: `${PASSWORD}\n` });
    await runLogin({ email: 'in@example.com', passwordStdin: true }, cli.ctx);
    const out = JSON.parse(cli.stdout());
    assert.equal(out, { ok: true, email: 'in@example.com', pending_verification: false });
    assert.is(cli.credentials.size, 1);
    assert.not.match(cli.stdout(), [...cli.credentials.values()][0]!);
  } finally {
    await close();
  }
});

test("login again: the e-mail of the profile's last login is used, not asked for", async () => {
  const { t, url, close } = await served();
  try {
    await createUser(t, { email: 'again@example.com', password: PASSWORD });
    const first = createFakeCli({ url, stdin: `${PASSWORD}\n` });
    await runLogin({ email: 'again@example.com', passwordStdin: true }, first.ctx);
    const second = createFakeCli({ url, stdin: `${PASSWORD}\n` });
    for (const [k, v] of first.credentials) second.credentials.set(k, v);
    await runLogin({ passwordStdin: true }, second.ctx);
    assert.match(second.stdout(), 'Logged in as again@example.com.');
    // With no earlier login there is nothing to reuse: still a usage error off a terminal.
    const fresh = createFakeCli({ url, stdin: `${PASSWORD}\n` });
    const err = await runLogin({ passwordStdin: true }, fresh.ctx).catch((e) => e);
    assert.instance(err, UsageError);
  } finally {
    await close();
  }
});

test('a wrong password is an API error with exit code 4; no terminal and no flag is a usage error', async () => {
  const { url, close } = await served();
  try {
    const cli = createFakeCli({ url, stdin: 'wrong password here\n' });
    try {
      await runLogin({ email: 'nobody@example.com', passwordStdin: true }, cli.ctx);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, ApiRequestError);
      assert.is((err as ApiRequestError).code, 'invalid_credentials');
      assert.is((err as ApiRequestError).exitCode, 4);
    }
    const noTty = createFakeCli({ url, stdin: '' });
    try {
      await runLogin({ email: 'a@example.com' }, noTty.ctx);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, UsageError);
      assert.match((err as Error & { hint?: string }).hint ?? '', '--password-stdin');
    }
    const empty = createFakeCli({ url, stdin: '' });
    try {
      await runLogin({ email: 'a@example.com', passwordStdin: true }, empty.ctx);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, UsageError);
    }
  } finally {
    await close();
  }
});

test('verify --code and --resend use the stored signup login', async () => {
  const { t, url, close } = await served();
  try {
    const cli = createFakeCli({ url, stdin: `${PASSWORD}\n` });
    await runSignup({ email: 'code@example.com', invite: await newInvite(t), passwordStdin: true }, cli.ctx);
    const first = (await waitForMail(t, 'code@example.com')).code!;
    t.clock.advance(61_000);
    await runResend({}, cli.ctx);
    assert.match(cli.stdout(), 'A new code was sent to code@example.com');
    const second = (await waitForMail(t, 'code@example.com', (m) => m.code !== first)).code!;
    await runVerify({ code: second }, cli.ctx);
    assert.match(cli.stdout(), 'Verified code@example.com');
    try {
      await runVerify({ email: 'code@example.com' }, createFakeCli({ url }).ctx);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, UsageError);
    }
  } finally {
    await close();
  }
});

test.run();
