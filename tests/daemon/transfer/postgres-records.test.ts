import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { readPostgres } from '../../../daemon/transfer/postgres-source.js';
import { writePostgres } from '../../../daemon/transfer/postgres-target.js';
import { writeDataFolder } from '../../../daemon/transfer/folder-target.js';
import { testPostgres } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { each, recordsOf, runtimeFolder } from '../../helpers/transfer-folder.js';
import type { ArchiveRecord } from '../../../daemon/transfer/archive-tables.js';

/**
 * The PostgreSQL side of `svc admin export|import`, record by record: every runtime table, the
 * event log with its ids, and the secrets go from a data folder into a database and come back
 * out the same, and from there into a new data folder the same again.
 */
const cluster = testPostgres();
const comparable = (rs: ArchiveRecord[]) => rs;
const collect = async (it: AsyncIterable<ArchiveRecord>) => {
  const out: ArchiveRecord[] = [];
  for await (const r of it) out.push(r);
  return out;
};

if (cluster) {
  test('a data folder into PostgreSQL and back out: the same records, the same event ids', async () => {
    const source = await recordsOf(await runtimeFolder());
    const tables = new Set(source.map((r) => r.table));
    assert.is(tables.size, 16, `every runtime table, events and secrets: ${[...tables]}`);
    const url = await (await cluster()).createDatabase();
    await writePostgres(url, () => each(source));
    const back = await collect(readPostgres(url));
    assert.equal(comparable(back), comparable(source));

    const folder = join(tempDir('svc-transfer-dst'), 'data');
    await writeDataFolder(folder, each(back));
    assert.equal(comparable(await recordsOf(folder)), comparable(source));

    // The log continues above the imported ids.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT last_seq FROM svc_event_heads');
      assert.equal(rows, [{ last_seq: '3' }]);
    } finally {
      await client.end();
    }
  });

  test('a failure half-way rolls the whole import back: the database is as empty as before', async () => {
    const source = await recordsOf(await runtimeFolder());
    const url = await (await cluster()).createDatabase();
    // PostgreSQL text cannot hold NUL: the last event fails after everything else was inserted.
    const bad = [
      ...source,
      {
        table: 'events',
        company: 'cmp_transfer1',
        record: { ...source.at(-1)!.record, id: 'evt_0000000000000009', type: 'a\u0000b' },
      },
    ];
    const failed = await writePostgres(url, () => each(bad)).then(
      () => null,
      (err: Error) => err,
    );
    assert.ok(failed, 'the import fails');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const table of ['svc_secrets', 'svc_events', 'svc_event_heads', 'svc_rt_agents', 'svc_rt_messages']) {
        const { rows } = await client.query(`SELECT count(*)::int AS n FROM ${table}`);
        assert.is(rows[0].n, 0, table);
      }
    } finally {
      await client.end();
    }
    // And since nothing stayed, the same database takes the good archive afterwards.
    await writePostgres(url, () => each(source));
  });

  test('a database a daemon has started on (it holds secrets) is not empty: refused, left as it was', async () => {
    const source = await recordsOf(await runtimeFolder());
    const url = await (await cluster()).createDatabase();
    await writePostgres(url, () => each(source));
    try {
      await writePostgres(url, () => each(source));
      assert.unreachable('a second import into the same database');
    } catch (err) {
      assert.match((err as Error).message, /is not empty \(svc_\w+ has rows\)/);
    }
    assert.equal(comparable(await collect(readPostgres(url))), comparable(source));
  });
  test('a table the export does not know stops it, rather than leave its rows behind', async () => {
    const url = await (await cluster()).createDatabase();
    await writePostgres(url, async function* () {}); // migrated, empty
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('CREATE TABLE svc_added_later (id text PRIMARY KEY)');
    } finally {
      await client.end();
    }
    const failed = await collect(readPostgres(url)).then(
      () => null,
      (err: Error) => err,
    );
    assert.match(failed?.message ?? '', 'does not know how to move (svc_added_later)');
  });
}

test.run();
