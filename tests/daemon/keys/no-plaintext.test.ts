import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createUser } from '../../helpers/accounts.js';
import { createCompany, createSecretKey, rotateAccountKey } from '../../helpers/keys.js';
import { createTestApp } from '../../helpers/test-app.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { readAccountRows } from '../../helpers/account-rows.js';
import { accountKeySpec, secretKeySpec } from '../../../daemon/store/accounts/tables.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('file storage: no plaintext ak_ or sk_ anywhere under the data folder, only their SHA-256', async () => {
  const dataDir = tempDir('svc-keys-grep');
  const t = await createTestApp({ storage: 'file', dataDir });
  const u = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, u);
  const { key: sk } = await createSecretKey(t, u, co.id);
  const ak = await rotateAccountKey(t, u);
  assert.is((await t.post('/api/mcp/validate', {}, { authorization: `Bearer ${sk}`, 'x-api-key': ak })).status, 200);
  await t.deps.stores.flush();
  const files = filesUnder(dataDir);
  assert.ok(
    files.some((f) => f.includes('/accounts/')),
    'the accounts journal written',
  );
  const body = (k: string) => k.slice(9); // everything after the shown prefix
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const secret of [sk, ak]) {
      assert.not.ok(text.includes(secret), `${file} holds a whole key`);
      assert.not.ok(text.includes(body(secret)), `${file} holds the hidden part of a key`);
    }
  }
  assert.match((await readAccountRows(dataDir, secretKeySpec))[0]!.hash, /^[0-9a-f]{64}$/);
  assert.match((await readAccountRows(dataDir, accountKeySpec))[0]!.hash, /^[0-9a-f]{64}$/);
});

test.run();
