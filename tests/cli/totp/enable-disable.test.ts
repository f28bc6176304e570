import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTotpDisable } from '../../../cli/commands/totp/disable.js';
import { runTotpEnable } from '../../../cli/commands/totp/enable.js';
import { runTotpStatus } from '../../../cli/commands/totp/status.js';
import { UsageError } from '../../../cli/errors.js';
import { totpCodeAt } from '../../../daemon/auth/totp/totp-codes.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createTestApp, serveTestApp } from '../../helpers/test-app.js';

test('svc totp enable (no terminal) prints the URI, --confirm turns it on and prints recovery codes; disable needs a code', async () => {
  const t = await createTestApp();
  const server = await serveTestApp(t);
  try {
    const u = await createUser(t);
    const env = { SVC_TOKEN: u.token };
    const begin = createFakeCli({ url: server.url, env, json: true });
    await runTotpEnable({}, begin.ctx);
    const started = JSON.parse(begin.stdout());
    assert.match(started.otpauth_uri, /^otpauth:\/\/totp\//);

    const confirm = createFakeCli({ url: server.url, env });
    await runTotpEnable({ confirm: totpCodeAt(started.secret, t.clock.now()) }, confirm.ctx);
    assert.match(confirm.stdout(), /Two-factor authentication is on/);
    assert.is(confirm.stdout().match(/^ {2}[0-9a-z]{5}-[0-9a-z]{5}$/gm)?.length, 10);

    const status = createFakeCli({ url: server.url, env, json: true });
    await runTotpStatus(status.ctx);
    assert.is(JSON.parse(status.stdout()).enabled, true);

    try {
      await runTotpDisable({ passwordStdin: false }, createFakeCli({ url: server.url, env }).ctx);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, UsageError);
    }
    t.clock.advance(30_000);
    const off = createFakeCli({ url: server.url, env });
    await runTotpDisable({ code: totpCodeAt(started.secret, t.clock.now()), passwordStdin: false }, off.ctx);
    assert.match(off.stdout(), /is off/);
    const pw = createFakeCli({ url: server.url, env, stdin: u.password });
    await runTotpEnable({}, createFakeCli({ url: server.url, env }).ctx);
    // Nothing enabled now (only pending), so the password disable is refused as "not on".
    try {
      await runTotpDisable({ passwordStdin: true }, pw.ctx);
      assert.unreachable();
    } catch (err) {
      assert.match((err as Error).message, /not on/);
    }
  } finally {
    await server.close();
  }
});

test('svc totp enable on a terminal draws a QR code, asks for the first code and prints the recovery codes', async () => {
  const t = await createTestApp();
  const server = await serveTestApp(t);
  try {
    const u = await createUser(t);
    const cli = createFakeCli({ url: server.url, env: { SVC_TOKEN: u.token } });
    const running = runTotpEnable({}, { ...cli.ctx, interactive: true });
    // Answer the prompt once it is shown, with the code for the secret printed above it.
    while (!cli.stderr().includes('6-digit code')) await new Promise((r) => setTimeout(r, 5));
    const secret = /secret: ([A-Z2-7]+)/.exec(cli.stdout())![1]!;
    (cli.ctx.io.stdin as unknown as NodeJS.WritableStream).write(totpCodeAt(secret, t.clock.now()) + '\n');
    await running;
    assert.match(cli.stdout(), /[▄▀█]/, 'a QR code drawn with block characters');
    assert.match(cli.stdout(), /Two-factor authentication is on/);
    assert.is(cli.stdout().match(/^ {2}[0-9a-z]{5}-[0-9a-z]{5}$/gm)?.length, 10);
  } finally {
    await server.close();
  }
});

test.run();
