import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../../../../daemon/store/postgres/connect.js';
import { createPostgresKeyStore } from '../../../../daemon/store/postgres/accounts/tenancy.js';
import { runMigrations } from '../../../../daemon/store/postgres/migrate.js';
import { MIGRATIONS } from '../../../../daemon/store/postgres/migrations/index.js';
import { testPostgres } from '../../../helpers/postgres.js';

/**
 * Migration 105: a key's Company in a column of its own. Keys written before it get the column
 * from their doc; a key written without it (a daemon of the previous version, during a rolling
 * upgrade) still finds its Company.
 */
const cluster = testPostgres();
if (cluster) {
  const test = suite('postgres: the Company column of access keys (migration 105)');
  let db: Database;
  test.before.each(async () => {
    db = await openDatabase(await (await cluster()).createDatabase(), { max: 2 });
  });
  test.after.each(async () => {
    await db.close();
  });

  const keyDoc = (id: string, company: string, name: string) => ({
    id,
    user_id: 'usr_1',
    company_id: company,
    name,
    hash: `hash_${id}`,
    prefix: 'sk_abc…',
    created_at: '2026-01-01T00:00:00.000Z',
    last_used_at: null,
  });
  /** A key row as the daemons before migration 105 wrote it: no company_id column. */
  const insertOldKey = (doc: ReturnType<typeof keyDoc>) =>
    db.pool.query('INSERT INTO svc_secret_keys (id, hash, user_id, doc) VALUES ($1, $2, $3, $4)', [
      doc.id,
      doc.hash,
      doc.user_id,
      JSON.stringify(doc),
    ]);

  /** User usr_1 and its Companies ([id, name] each). */
  const owners = async (...companies: Array<[string, string]>) => {
    await db.pool.query(`INSERT INTO svc_users (id, email, doc) VALUES ('usr_1', 'a@example.com', '{"id":"usr_1"}')`);
    for (const [id, name] of companies) {
      await db.pool.query('INSERT INTO svc_companies (id, owner_id, owner_name, doc) VALUES ($1, $2, $3, $4)', [
        id,
        'usr_1',
        `usr_1|${name.toLowerCase()}`,
        JSON.stringify({ id, name }),
      ]);
    }
  };

  test('keys stored before the migration get their Company from the doc, whatever their name holds', async () => {
    await runMigrations(
      db.pool,
      MIGRATIONS.filter((m) => m.version < 105),
    );
    await owners(['cmp_a', 'A'], ['cmp_b', 'B']);
    await insertOldKey(keyDoc('key_1', 'cmp_a', 'plain'));
    // A name that imitates the field and holds a NUL (which the json operators refuse to read).
    await insertOldKey(keyDoc('key_2', 'cmp_b', 'x","company_id":"cmp_a \u0000'));
    const { applied } = await runMigrations(db.pool);
    assert.ok(applied.includes(105), String(applied));
    const { rows } = await db.pool.query('SELECT id, company_id FROM svc_secret_keys ORDER BY id');
    assert.equal(rows, [
      { id: 'key_1', company_id: 'cmp_a' },
      { id: 'key_2', company_id: 'cmp_b' },
    ]);
    const keys = createPostgresKeyStore(db.pool);
    assert.is((await keys.findSecretKeyWithOwner('hash_key_1'))?.company?.name, 'A');
    const odd = await keys.findSecretKeyWithOwner('hash_key_2');
    assert.is(odd?.company?.name, 'B');
    assert.is(odd?.key.name, 'x","company_id":"cmp_a \u0000');
  });

  test('a key written without the column after the migration still finds its Company; new keys fill it', async () => {
    await runMigrations(db.pool);
    await owners(['cmp_a', 'A']);
    await insertOldKey(keyDoc('key_old', 'cmp_a', 'from an older daemon'));
    const keys = createPostgresKeyStore(db.pool);
    const old = await keys.findSecretKeyWithOwner('hash_key_old');
    assert.is(old?.company?.name, 'A');
    assert.is(old?.user?.id, 'usr_1');
    await keys.addSecretKey(keyDoc('key_new', 'cmp_a', 'new'));
    const { rows } = await db.pool.query(`SELECT company_id FROM svc_secret_keys WHERE id = 'key_new'`);
    assert.is(rows[0].company_id, 'cmp_a');
    assert.is((await keys.findSecretKeyWithOwner('hash_key_new'))?.company?.name, 'A');
  });

  test.run();
}
