import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInvite } from '../../../cli/commands/admin/invite.js';
import { runTier } from '../../../cli/commands/admin/tier.js';
import { runStatus } from '../../../cli/commands/daemon/status.js';
import { runMail } from '../../../cli/commands/mail/list.js';
import { AuthRequiredError, NotFoundError, UsageError, ApiRequestError } from '../../../cli/errors.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createUser } from '../../helpers/accounts.js';
import { createTestApp, serveTestApp, type TestApp } from '../../helpers/test-app.js';

/** A served test daemon and a fake CLI pointed at it, with the operator token in the CLI's data folder. */
async function setUp(options: { json?: boolean } = {}) {
  const t = await createTestApp();
  const served = await serveTestApp(t);
  const cli = createFakeCli({ url: served.url, json: options.json });
  writeFileSync(join(cli.ctx.env.SVC_DATA_DIR!, 'operator-token'), t.deps.secrets.operatorToken + '\n', {
    mode: 0o600,
  });
  return { t, cli, close: served.close };
}

async function sendMail(t: TestApp) {
  await t.deps.mailer.send({
    to: 'ada@example.com',
    subject: 'Your svc verification code',
    text: 'Your code is 123456.',
    code: '123456',
  });
  await t.deps.mailer.send({
    to: 'bob@example.com',
    subject: 'Your sign-in link',
    text: 'Open the link.',
    link: 'http://127.0.0.1:7878/magic?token=abc',
  });
}

test('svc mail --to shows only that address, with its code', async () => {
  const { t, cli, close } = await setUp();
  try {
    await sendMail(t);
    await runMail({ to: 'ada@example.com', follow: false, intervalMs: 10 }, cli.ctx);
    const out = cli.stdout();
    assert.ok(out.includes('to ada@example.com  Your svc verification code'), out);
    assert.ok(out.includes('code: 123456'), out);
    assert.not.ok(out.includes('bob@example.com'), out);
    assert.not.ok(out.includes('\x1b['), 'no colours when stdout is not a terminal');
  } finally {
    await close();
  }
});

test('svc mail --json prints the messages as a JSON array', async () => {
  const { t, cli, close } = await setUp({ json: true });
  try {
    await sendMail(t);
    await runMail({ follow: false, intervalMs: 10 }, cli.ctx);
    const mail = JSON.parse(cli.stdout());
    assert.equal(
      mail.map((m: any) => m.to),
      ['ada@example.com', 'bob@example.com'],
    );
    assert.is(mail[1].link, 'http://127.0.0.1:7878/magic?token=abc');
  } finally {
    await close();
  }
});

test('svc mail with an empty outbox says so on stderr', async () => {
  const { cli, close } = await setUp();
  try {
    await runMail({ to: 'nobody@example.com', follow: false, intervalMs: 10 }, cli.ctx);
    assert.is(cli.stdout(), '');
    assert.is(cli.stderr().trim(), 'no mail to nobody@example.com yet');
  } finally {
    await close();
  }
});

test('svc mail --follow prints messages as they arrive, each once', async () => {
  const { t, cli, close } = await setUp({ json: true });
  const stop = new AbortController();
  const waitFor = async (text: string) => {
    while (!cli.stdout().includes(text)) await new Promise((r) => setTimeout(r, 5));
  };
  try {
    await t.deps.mailer.send({ to: 'ada@example.com', subject: 'first', text: 'one' });
    const following = runMail({ to: 'ada@example.com', follow: true, intervalMs: 5, signal: stop.signal }, cli.ctx);
    await waitFor('"first"');
    await t.deps.mailer.send({ to: 'bob@example.com', subject: 'not for ada', text: 'x' });
    await t.deps.mailer.send({ to: 'ada@example.com', subject: 'second', text: 'two' });
    await waitFor('"second"');
    stop.abort();
    await following;
    const lines = cli
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).subject);
    assert.equal(lines, ['first', 'second']);
  } finally {
    stop.abort();
    await close();
  }
});

test('svc admin invite prints a fresh code (and --json an object)', async () => {
  const { cli, close } = await setUp();
  try {
    await runInvite({}, cli.ctx);
    assert.match(cli.stdout().trim(), /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  } finally {
    await close();
  }
  const json = await setUp({ json: true });
  try {
    await runInvite({}, json.cli.ctx);
    assert.match(JSON.parse(json.cli.stdout()).code, /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  } finally {
    await json.close();
  }
});

test('svc admin tier sets the tier of a user', async () => {
  const { t, cli, close } = await setUp();
  try {
    const { user } = await createUser(t, { email: 'ada@example.com' });
    await runTier({ email: 'ada@example.com', tier: 'company' }, cli.ctx);
    assert.is(cli.stdout().trim(), 'ada@example.com is now on the company tier');
    assert.is((await t.deps.stores.users.findByEmail('ada@example.com'))!.tier, 'company');
    assert.is(user.id, (await t.deps.stores.users.findByEmail('ada@example.com'))!.id);
  } finally {
    await close();
  }
});

test('svc admin tier with an unknown tier is a usage error (exit 2) before any request', async () => {
  const cli = createFakeCli({ url: 'http://127.0.0.1:9' });
  try {
    await runTier({ email: 'ada@example.com', tier: 'gold' }, cli.ctx);
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, UsageError);
    assert.is((err as UsageError).exitCode, 2);
    assert.match((err as Error).message, "unknown tier 'gold': use one of trial, starter, company, owner");
  }
});

test("svc admin tier for an unknown user fails with the daemon's 404 (exit 1)", async () => {
  const { cli, close } = await setUp();
  try {
    await runTier({ email: 'ghost@example.com', tier: 'company' }, cli.ctx);
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, ApiRequestError);
    assert.is((err as ApiRequestError).status, 404);
    assert.is((err as ApiRequestError).exitCode, 1);
  } finally {
    await close();
  }
});

test('operator commands without a token in the data folder ask for one (auth, exit 4)', async () => {
  const cli = createFakeCli({ url: 'http://127.0.0.1:9' });
  try {
    await runInvite({}, cli.ctx);
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, AuthRequiredError);
    assert.is((err as AuthRequiredError).exitCode, 4);
    assert.ok((err as Error).message.includes(cli.ctx.env.SVC_DATA_DIR!));
  }
});

test('a wrong operator token is refused by the daemon (exit 4)', async () => {
  const { cli, close } = await setUp();
  try {
    writeFileSync(join(cli.ctx.env.SVC_DATA_DIR!, 'operator-token'), 'op_wrong\n');
    await runInvite({}, cli.ctx);
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, ApiRequestError);
    assert.is((err as ApiRequestError).code, 'operator_token_required');
    assert.is((err as ApiRequestError).exitCode, 4);
  } finally {
    await close();
  }
});

test('svc daemon status with no daemon running: not found (exit 1), and --json says running false', async () => {
  const cli = createFakeCli();
  try {
    await runStatus({}, cli.ctx);
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, NotFoundError);
    assert.is((err as NotFoundError).exitCode, 1);
    assert.ok((err as Error).message.includes(cli.ctx.env.SVC_DATA_DIR!));
  }
  const json = createFakeCli({ json: true });
  await runStatus({}, json.ctx).catch(() => {});
  assert.equal(JSON.parse(json.stdout()), {
    running: false,
    healthy: false,
    pid: null,
    url: null,
    data_dir: json.ctx.env.SVC_DATA_DIR,
    version: null,
  });
});

test.run();
