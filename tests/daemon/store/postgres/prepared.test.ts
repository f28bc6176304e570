import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, withTransaction } from '../../../../daemon/store/postgres/connect.js';
import { testPostgres } from '../../../helpers/postgres.js';

/**
 * Statements with values are prepared once per connection, on both paths a store takes: pool.query
 * and a transaction's client.query (before, a transaction's ran unnamed: parsed and planned on
 * every call). Texts without values stay simple queries, so BEGIN and several statements in one
 * text (a migration) still run.
 */
const cluster = testPostgres();
if (cluster) {
  const test = suite('postgres: prepared statements');
  let url = '';
  test.before(async () => {
    url = await (await cluster()).createDatabase();
  });

  test('a statement run only inside transactions is prepared too, as pool.query statements are', async () => {
    const db = await openDatabase(url, { max: 1 });
    try {
      assert.is((await db.pool.query<{ n: number }>('SELECT $1::int + 1 AS n', [1])).rows[0]!.n, 2);
      const text = 'SELECT $1::int + 2 AS n';
      const inside = await withTransaction(db.pool, async (client) => {
        await client.query('CREATE TEMP TABLE scratch (x int); INSERT INTO scratch VALUES (1)');
        const { rows } = await client.query<{ n: number }>(text, [40]);
        const prepared = await client.query<{ statement: string }>(
          'SELECT statement FROM pg_prepared_statements WHERE statement = $1',
          [text],
        );
        return { n: rows[0]!.n, prepared: prepared.rows.length };
      });
      assert.equal(inside, { n: 42, prepared: 1 });
      const all = await db.pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
      assert.is(all.rows.length, 3, 'the two sums and the lookup of prepared statements; nothing without values');
      assert.ok(all.rows.every((r) => r.name.startsWith('svc_')));
    } finally {
      await db.close();
    }
  });

  test.run();
}
