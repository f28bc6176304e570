import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runMain } from '../../helpers/cli.js';

const run = (argv: string[], env: Record<string, string> = {}) =>
  runMain(argv, { SVC_URL: 'http://127.0.0.1:9', ...env });

test('svc login: the password login by default needs --email without a terminal; two methods is a usage error (exit 2)', async () => {
  const none = await run(['login']);
  assert.is(none.code, 2);
  assert.match(none.err, /--email/);
  const two = await run(['login', '--email-code', '--wallet']);
  assert.is(two.code, 2);
  assert.match(two.err, /--email-code or --wallet/);
});

test('svc login --wallet refuses a malformed key and never takes one from argv', async () => {
  const bad = await run(['login', '--wallet'], { SVC_WALLET_KEY: 'abc' });
  assert.is(bad.code, 2);
  assert.match(bad.err, /64 hex digits/);
  const empty = await run(['login', '--wallet']);
  assert.is(empty.code, 2);
  assert.match(empty.err, /SVC_WALLET_KEY/);
  assert.is((await run(['login', '--wallet', '--key', '0x' + '1'.repeat(64)])).code, 2, 'no --key flag exists');
});

test('svc totp --help lists enable, disable and status', async () => {
  const help = await run(['totp', '--help']);
  assert.is(help.code, 0);
  for (const verb of ['enable', 'disable', 'status']) assert.match(help.out, new RegExp(`\\b${verb}\\b`));
});

test.run();
