import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../../../../daemon/store/postgres/connect.js';
import { runMigrations } from '../../../../daemon/store/postgres/migrate.js';
import { openTeamDatabase } from '../../../../daemon/store/postgres/index.js';
import { loadDatabaseSecrets, SECRET_NAMES } from '../../../../daemon/store/postgres/secrets.js';
import { testPostgres } from '../../../helpers/postgres.js';

const cluster = testPostgres();
if (cluster) {
  const test = suite('postgres: deployment secrets');
  const opened: Database[] = [];
  test.after.each(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });
  const migrated = async (n: number) => {
    const url = await (await cluster()).createDatabase();
    const dbs = await Promise.all(Array.from({ length: n }, () => openDatabase(url, { max: 2 })));
    opened.push(...dbs);
    await runMigrations(dbs[0]!.pool);
    return dbs;
  };

  test('daemons starting at once all end up with the same secrets, created once', async () => {
    const dbs = await migrated(5);
    const all = await Promise.all(dbs.map((db) => loadDatabaseSecrets(db.pool)));
    for (const s of all) {
      assert.equal(s, all[0]);
      assert.is(s.jwtSecret.length, 32);
      assert.is(s.mailKey.length, 32);
      assert.is(s.codeKey.length, 32);
    }
    assert.ok(!all[0]!.jwtSecret.equals(all[0]!.mailKey), 'each secret is its own random value');
    const { rows } = await dbs[0]!.pool.query('SELECT name FROM svc_secrets ORDER BY name');
    assert.equal(
      rows.map((r) => r.name),
      [...SECRET_NAMES].sort(),
    );
    assert.equal(await loadDatabaseSecrets(dbs[1]!.pool), all[0], 'a restart reads the same values');
  });

  test('rotation: a deleted secret is made anew by the next start; a hand-set one must be 32 hex bytes', async () => {
    const [db] = await migrated(1);
    const before = await loadDatabaseSecrets(db!.pool);
    await db!.pool.query("DELETE FROM svc_secrets WHERE name = 'jwt_secret'");
    const after = await loadDatabaseSecrets(db!.pool);
    assert.not.ok(after.jwtSecret.equals(before.jwtSecret));
    assert.ok(after.mailKey.equals(before.mailKey), 'the others are untouched');
    await db!.pool.query("UPDATE svc_secrets SET value = 'short' WHERE name = 'mail_key'");
    const err = await loadDatabaseSecrets(db!.pool).catch((e: Error) => e);
    assert.match((err as Error).message, /secret mail_key in svc_secrets must be 64 hex characters/);
    assert.not.match((err as Error).message, /short/, 'the value itself is not repeated');
  });

  test('openTeamDatabase: daemons starting at once on an empty database migrate once and share one set of secrets', async () => {
    const url = await (await cluster()).createDatabase();
    const teams = await Promise.all([
      openTeamDatabase(url, { max: 2 }),
      openTeamDatabase(url, { max: 2 }),
      openTeamDatabase(url, { max: 2 }),
    ]);
    opened.push(...teams.map((t) => t.db));
    assert.is(teams.filter((t) => t.migration.applied.length > 0).length, 1);
    for (const t of teams) assert.equal(t.secrets, teams[0]!.secrets);
  });

  test.run();
}
