import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Wallet } from 'ethers';
import { runFactorLogin, type FactorLoginOptions } from '../../../cli/commands/auth/login-factors.js';
import { UsageError } from '../../../cli/errors.js';
import { verifyToken } from '../../../daemon/auth/tokens.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createTestApp, serveTestApp, type TestApp } from '../../helpers/test-app.js';
import { codeNow, enableTotp } from '../../helpers/totp.js';

const base: FactorLoginOptions = { emailCode: false, wallet: false };

async function withServer(fn: (t: TestApp, url: string, env: Record<string, string>) => Promise<void>) {
  const t = await createTestApp();
  const server = await serveTestApp(t);
  try {
    await fn(t, server.url, { SVC_OPERATOR_TOKEN: t.deps.secrets.operatorToken });
  } finally {
    await server.close();
  }
}

// Logins are filed under the profile (here the default one), not the URL.
const savedToken = (cli: ReturnType<typeof createFakeCli>, _url: string) =>
  cli.credentials.get(`token:profile:default`);

test('--email-code without a terminal reads the code from the local daemon mail and saves the session', async () => {
  await withServer(async (t, url, env) => {
    const u = await createUser(t);
    const cli = createFakeCli({ url, env });
    await runFactorLogin({ ...base, emailCode: true, email: u.user.email! }, cli.ctx);
    const token = savedToken(cli, url)!;
    assert.equal(verifyToken(t.deps.secrets.jwtSecret, token, t.clock.now())!.amr, ['email_code']);
    assert.match(cli.stdout(), /Logged in to .* as user/);
  });
});

test('--email-code with --totp-code finishes the two-factor step; without it and no terminal → usage error', async () => {
  await withServer(async (t, url, env) => {
    const u = await createUser(t);
    const { secret } = await enableTotp(t, u);
    const cli = createFakeCli({ url, env, json: true });
    await runFactorLogin({ ...base, emailCode: true, email: u.user.email!, totpCode: codeNow(t, secret) }, cli.ctx);
    assert.equal(verifyToken(t.deps.secrets.jwtSecret, savedToken(cli, url)!, t.clock.now())!.amr, [
      'email_code',
      'otp',
    ]);
    assert.is(JSON.parse(cli.stdout()).ok, true);

    t.clock.advance(61_000);
    const bare = createFakeCli({ url, env });
    try {
      await runFactorLogin({ ...base, emailCode: true, email: u.user.email! }, bare.ctx);
      assert.unreachable('needs --totp-code');
    } catch (err) {
      assert.instance(err, UsageError);
      assert.match((err as UsageError).hint!, /--totp-code/);
    }
    assert.is(savedToken(bare, url), undefined);
  });
});

test('--wallet signs up with --invite, then logs in; the key comes from SVC_WALLET_KEY or stdin', async () => {
  await withServer(async (t, url) => {
    const wallet = Wallet.createRandom();
    const invite = (await t.post('/api/dev/invites', {}, t.operator)).body.code;
    const first = createFakeCli({ url, env: { SVC_WALLET_KEY: wallet.privateKey } });
    await runFactorLogin({ ...base, wallet: true, invite }, first.ctx);
    const claims = verifyToken(t.deps.secrets.jwtSecret, savedToken(first, url)!, t.clock.now())!;
    assert.equal([claims.email, claims.amr], [null, ['wallet']]);

    const second = createFakeCli({ url, stdin: wallet.privateKey.slice(2) + '\n' });
    await runFactorLogin({ ...base, wallet: true }, second.ctx);
    assert.is(verifyToken(t.deps.secrets.jwtSecret, savedToken(second, url)!, t.clock.now())!.user_id, claims.user_id);
  });
});

test('flags: exactly one way; a malformed wallet key is a usage error', async () => {
  const cli = createFakeCli({ url: 'http://127.0.0.1:9' });
  for (const opts of [base, { ...base, emailCode: true, wallet: true }]) {
    try {
      await runFactorLogin(opts, cli.ctx);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, UsageError);
    }
  }
  try {
    await runFactorLogin(
      { ...base, wallet: true },
      createFakeCli({ url: 'http://127.0.0.1:9', env: { SVC_WALLET_KEY: 'nothex' } }).ctx,
    );
    assert.unreachable();
  } catch (err) {
    assert.instance(err, UsageError);
  }
});

test.run();
