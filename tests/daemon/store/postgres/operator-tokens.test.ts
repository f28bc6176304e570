import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../../../daemon/store/postgres/connect.js';
import { openTeamDatabase } from '../../../../daemon/store/postgres/index.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { createTestApp, type TestApp } from '../../../helpers/test-app.js';

/**
 * Team mode keeps no operator token in the database, only SHA-256 hashes (svc_operator_tokens):
 * each daemon's token is in its own data folder, every daemon accepts every registered token, a
 * deleted row is refused at once, and a deployment whose svc_secrets held the token in plaintext
 * keeps that token working after the upgrade while the row becomes a hash.
 */
const cluster = testPostgres();
if (cluster) {
  const test = suite('postgres: operator tokens are stored hashed');
  const open: Array<TestApp | Database> = [];
  test.after.each(async () => {
    for (const x of open.splice(0).reverse()) await x.close();
  });
  const daemon = async (url: string, dataDir = tempDir('svc-team-op')) => {
    const t = await createTestApp({ database: url, dataDir });
    open.push(t);
    return { t, dataDir, token: t.deps.secrets.operatorToken };
  };
  const pool = async (url: string) => {
    const db = await openDatabase(url, { max: 1 });
    open.push(db);
    return db.pool;
  };
  const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
  const invite = (t: TestApp, token: string) =>
    t.post('/api/dev/invites', {}, { authorization: `Bearer ${token}` }).then((r) => r.status);

  test("each daemon's token is in its data folder, works on every daemon, and only its hash is in the database", async () => {
    const url = await (await cluster()).createDatabase();
    const a = await daemon(url);
    const b = await daemon(url);
    assert.is.not(a.token, b.token);
    for (const d of [a, b]) {
      const file = join(d.dataDir, 'operator-token');
      assert.is(readFileSync(file, 'utf8').trim(), d.token);
      assert.is(statSync(file).mode & 0o777, 0o600);
    }
    assert.equal([await invite(a.t, b.token), await invite(b.t, a.token), await invite(a.t, a.token)], [201, 201, 201]);
    assert.is(await invite(a.t, `${a.token}x`), 401);
    assert.is(await invite(b.t, sha256(a.token)), 401, 'a hash read from the database is no token');

    const db = await pool(url);
    const hashes = (await db.query('SELECT hash FROM svc_operator_tokens ORDER BY hash')).rows.map((r) => r.hash);
    assert.equal(hashes, [sha256(a.token), sha256(b.token)].sort());
    const secrets = (await db.query('SELECT name, value FROM svc_secrets')).rows;
    assert.not.ok(
      secrets.some((r) => r.name === 'operator_token' || r.value === a.token || r.value === b.token),
      'no plaintext token in svc_secrets',
    );
    // A restart keeps the token of its data folder.
    await a.t.close();
    open.splice(open.indexOf(a.t), 1);
    assert.is((await daemon(url, a.dataDir)).token, a.token);
  });

  test('a deleted row is refused on the next request by every daemon; the next start writes a new token', async () => {
    const url = await (await cluster()).createDatabase();
    const a = await daemon(url);
    const b = await daemon(url);
    const db = await pool(url);
    await db.query('DELETE FROM svc_operator_tokens WHERE hash = $1', [sha256(a.token)]);
    assert.equal([await invite(a.t, a.token), await invite(b.t, a.token)], [401, 401]);
    assert.is(await invite(a.t, b.token), 201, 'the other token still works');
    const again = await daemon(url, a.dataDir);
    assert.is.not(again.token, a.token);
    assert.is(readFileSync(join(a.dataDir, 'operator-token'), 'utf8').trim(), again.token);
    assert.is(await invite(b.t, again.token), 201);
  });

  test('upgrade: a plaintext token in svc_secrets keeps working and becomes a hash', async () => {
    const url = await (await cluster()).createDatabase();
    // The database as an older svc left it: the token in svc_secrets, and a copy in each daemon's folder.
    const legacy = `op_${'L'.repeat(43)}`;
    const before = await openTeamDatabase(url, { max: 1 });
    await before.db.pool.query("INSERT INTO svc_secrets (name, value) VALUES ('operator_token', $1)", [legacy]);
    await before.db.close();
    const oldFolder = tempDir('svc-team-op');
    writeFileSync(join(oldFolder, 'operator-token'), `${legacy}\n`, { mode: 0o600 });

    // The first new daemon moves the row (into its fresh folder); the next keeps the copy it had.
    const first = await daemon(url);
    const second = await daemon(url, oldFolder);
    assert.equal([first.token, second.token], [legacy, legacy], 'both daemons keep the token operators use');
    assert.equal([await invite(first.t, legacy), await invite(second.t, legacy)], [201, 201]);
    const db = await pool(url);
    assert.equal((await db.query("SELECT 1 FROM svc_secrets WHERE name = 'operator_token'")).rows, []);
    assert.equal(
      (await db.query('SELECT hash FROM svc_operator_tokens')).rows.map((r) => r.hash),
      [sha256(legacy)],
    );
  });

  test.run();
}
