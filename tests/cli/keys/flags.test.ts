import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../../cli/main.js';
import { createFakeCli } from '../../helpers/cli.js';

/** Flag parsing through the real program: usage errors exit 2 before any request is made. */
async function run(argv: string[], env: Record<string, string> = {}) {
  const cli = createFakeCli();
  const code = await main(argv, {
    io: cli.ctx.io,
    env: { SVC_CONFIG_DIR: cli.ctx.configDir, SVC_KEYCHAIN: 'off', SVC_URL: 'http://127.0.0.1:9', ...env },
  });
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

test('keys create needs --root and --name', async () => {
  assert.is((await run(['keys', 'create', '--name', 'x'])).code, 2);
  const r = await run(['keys', 'create', '--root', 'Acme']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /--name/);
});

test('keys revoke and companies create/use need their argument', async () => {
  assert.is((await run(['keys', 'revoke'])).code, 2);
  assert.is((await run(['companies', 'create'])).code, 2);
  assert.is((await run(['companies', 'use'])).code, 2);
});

test('keys validate refuses a malformed SVC_SECRET_KEY or SVC_ACCOUNT_KEY locally (exit 2), naming the variable', async () => {
  const bad = await run(['keys', 'validate'], { SVC_SECRET_KEY: 'sk_' + 'a'.repeat(49) });
  assert.is(bad.code, 2);
  assert.match(bad.stderr, /SVC_SECRET_KEY: This secret key fails its checksum/);
  const jwt = await run(['keys', 'validate'], { SVC_SECRET_KEY: 'eyJhbGciOiJIUzI1NiJ9.e30.x' });
  assert.match(jwt.stderr, /must start with sk_/);
});

test('keys validate with nothing stored and no Company: exit 4 with a hint', async () => {
  const r = await run(['keys', 'validate']);
  assert.is(r.code, 4);
  assert.match(r.stderr, /no secret key/);
  assert.match(r.stderr, /hint: set SVC_SECRET_KEY/);
});

test('help lists the new commands', async () => {
  const r = await run(['--help']);
  for (const name of ['companies', 'keys', 'account-key']) assert.match(r.stdout, new RegExp(`\\b${name}\\b`));
});

test.run();
