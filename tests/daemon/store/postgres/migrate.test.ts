import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../../../../daemon/store/postgres/connect.js';
import { runMigrations } from '../../../../daemon/store/postgres/migrate.js';
import { MIGRATIONS } from '../../../../daemon/store/postgres/migrations/index.js';
import { testPostgres } from '../../../helpers/postgres.js';

const cluster = testPostgres();
if (cluster) {
  const test = suite('postgres: migrations');
  const opened: Database[] = [];
  const open = async (url: string) => {
    const db = await openDatabase(url, { max: 3 });
    opened.push(db);
    return db;
  };
  test.after.each(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });

  test('a fresh database gets every migration once; a second start applies nothing', async () => {
    const db = await open(await (await cluster()).createDatabase());
    const first = await runMigrations(db.pool);
    assert.equal(
      first.applied,
      MIGRATIONS.map((m) => m.version),
    );
    const again = await runMigrations(db.pool);
    assert.equal(again.applied, []);
    assert.is(again.version, first.version);
    const { rows } = await db.pool.query('SELECT version FROM svc_schema_migrations ORDER BY version');
    assert.equal(
      rows.map((r) => r.version),
      MIGRATIONS.map((m) => m.version),
    );
  });

  test('daemons starting at once: exactly one migrates, the others wait and find it done', async () => {
    const url = await (await cluster()).createDatabase();
    // Separate pools stand for separate daemons: no connection is shared.
    const dbs = await Promise.all([open(url), open(url), open(url), open(url)]);
    const results = await Promise.all(dbs.map((db) => runMigrations(db.pool)));
    const appliers = results.filter((r) => r.applied.length > 0);
    assert.is(appliers.length, 1, JSON.stringify(results));
    assert.equal(
      appliers[0]!.applied,
      MIGRATIONS.map((m) => m.version),
    );
    const { rows } = await dbs[0]!.pool.query('SELECT count(*)::int AS n FROM svc_schema_migrations');
    assert.is(rows[0].n, MIGRATIONS.length);
  });

  test('a failing migration rolls back whole: nothing of it, nor of the ones before it in the run, stays', async () => {
    const db = await open(await (await cluster()).createDatabase());
    const broken = [
      ...MIGRATIONS,
      { version: 99, name: 'broken', sql: 'CREATE TABLE half_done (x int); SELECT no_such_function()' },
    ];
    const err = await runMigrations(db.pool, broken).catch((e: Error) => e);
    assert.instance(err, Error);
    assert.match((err as Error).message, /database migration 99 \(broken\) failed/);
    const { rows } = await db.pool.query("SELECT to_regclass('half_done') AS t, to_regclass('svc_events') AS e");
    assert.equal(rows[0], { t: null, e: null });
    assert.equal(
      (await runMigrations(db.pool)).applied,
      MIGRATIONS.map((m) => m.version),
      'a fixed release then migrates normally',
    );
  });

  test('a database migrated by a newer svc is refused with a clear message', async () => {
    const db = await open(await (await cluster()).createDatabase());
    await runMigrations(db.pool, [...MIGRATIONS, { version: 1000, name: 'future', sql: 'SELECT 1' }]);
    const err = await runMigrations(db.pool).catch((e: Error) => e);
    assert.match((err as Error).message, /schema is at version 1000 but this svc knows only up to \d+: upgrade svc/);
    // A newer release may add a version inside a range below the newest this one knows (1… vs 100…).
    const gap = await open(await (await cluster()).createDatabase());
    await runMigrations(
      gap.pool,
      [...MIGRATIONS, { version: 50, name: 'future-account-side', sql: 'SELECT 1' }].sort(
        (a, b) => a.version - b.version,
      ),
    );
    const refused = await runMigrations(gap.pool).catch((e: Error) => e);
    assert.match((refused as Error).message, /schema has migration 50, which this svc does not know: upgrade svc/);
  });

  test('an unreachable or malformed URL is one clear line, with no password in it', async () => {
    const bad = await openDatabase('postgres://svc:hunter2@/nodb?host=/nonexistent-socket-dir').catch((e: Error) => e);
    assert.match((bad as Error).message, /^cannot reach the database at postgres:\/\/svc:\*\*\*@/);
    assert.not.match((bad as Error).message, /hunter2/);
    const typo = await openDatabase('mysql://svc:hunter2@db/svc').catch((e: Error) => e);
    assert.match((typo as Error).message, /must start with postgres:\/\//);
    assert.not.match((typo as Error).message, /hunter2/);
  });

  test.run();
}
