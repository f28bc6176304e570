import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createUser } from '../../helpers/accounts.js';
import { createTestApp, serveTestApp } from '../../helpers/test-app.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * End to end: the built CLI (`node dist/cli/main.js`, a separate process) against the daemon on a
 * real socket. Signup and login have end-to-end tests of their own (tests/e2e/accounts.test.ts),
 * so the login here is a session made in-process (createUser) and handed to the CLI as SVC_TOKEN —
 * exactly how a script would use a token.
 */
const CLI = fileURLToPath(new URL('../../../cli/main.js', import.meta.url));

test('companies create → keys create → keys validate → keys revoke → validate fails', async () => {
  const t = await createTestApp();
  const server = await serveTestApp(t);
  try {
    const u = await createUser(t, { tier: 'company' });
    const configDir = tempDir('svc-e2e-config');
    const env = {
      ...process.env,
      SVC_URL: server.url,
      SVC_TOKEN: u.token,
      SVC_CONFIG_DIR: configDir,
      SVC_KEYCHAIN: 'off',
      SVC_SECRET_KEY: '',
      SVC_ACCOUNT_KEY: '',
    };
    delete (env as Record<string, string | undefined>).SVC_SECRET_KEY;
    delete (env as Record<string, string | undefined>).SVC_ACCOUNT_KEY;
    const svc = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [CLI, ...args], { env }, (err, stdout, stderr) => {
          resolve({
            code: err ? (((err as NodeJS.ErrnoException & { code?: number }).code as unknown as number) ?? 1) : 0,
            stdout,
            stderr,
          });
        });
      });

    const created = await svc('companies', 'create', 'E2E Co');
    assert.is(created.code, 0, created.stderr);
    assert.match(created.stdout, /Created Company E2E Co/);

    const key = await svc('keys', 'create', '--root', 'E2E Co', '--name', 'e2e', '--json');
    assert.is(key.code, 0, key.stderr);
    const { id, secret_key: secret } = JSON.parse(key.stdout);
    const stored = JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8'));
    assert.ok(JSON.stringify(stored).includes(secret), 'the key is in the 0600 credentials file');

    const ok = await svc('keys', 'validate');
    assert.is(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, new RegExp(`OK: the keys act as ${u.user.email}.*on Company E2E Co`));

    const revoked = await svc('keys', 'revoke', id);
    assert.is(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /Revoked secret key/);

    const afterLocal = await svc('keys', 'validate');
    assert.is(afterLocal.code, 4);
    assert.match(afterLocal.stderr, /no secret key stored/);
    // The revoked key itself, passed explicitly, is refused by the daemon.
    env.SVC_SECRET_KEY = secret;
    const refused = await svc('keys', 'validate');
    assert.is(refused.code, 4);
    assert.match(refused.stderr, /the keys were refused: This secret key is not valid/);
    assert.not.match(refused.stderr, /\n\s+at /);
  } finally {
    await server.close();
  }
});

test.run();
