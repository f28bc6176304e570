import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { exportArchive, importArchive } from '../../../daemon/transfer/index.js';
import { openFileAuditStore, verifyAuditFolder } from '../../../daemon/store/audit/file-audit.js';
import { createPostgresAuditStore } from '../../../daemon/store/postgres/audit.js';
import { entry } from '../../helpers/audit.js';
import { testPostgres } from '../../helpers/postgres.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { runtimeFolder } from '../../helpers/transfer-folder.js';

/**
 * `svc admin export|import` carry the audit trail: every entry as sealed, so the chains verify in
 * the new store; the export and the import are entries themselves (the operator acted), the
 * import's chained after everything it brought.
 */
const cluster = testPostgres();
if (!cluster) console.log('audit-transfer: PostgreSQL not found, its case skipped');

async function folderWithTrail(): Promise<{ dir: string; ids: string[] }> {
  const dir = await runtimeFolder();
  const audit = await openFileAuditStore(dir);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push((await audit.append(entry({ target: `a${i}` }))).id);
    ids.push((await audit.append(entry({ company_id: 'cmp_transfer1', target: `c${i}` }))).id);
  }
  await audit.close();
  return { dir, ids };
}

async function entriesOf(dir: string) {
  const audit = await openFileAuditStore(dir);
  try {
    return (await audit.query({ viewer: 'all', after: 'aud_0000000000000000', limit: 1000 })).entries;
  } finally {
    await audit.close();
  }
}

test('a data folder exported and imported: the same entries, the chain holds, export and import recorded', async () => {
  const { dir, ids } = await folderWithTrail();
  const file = join(tempDir('svc-audit-archive'), 'a.svcdump');
  await exportArchive({ kind: 'data-folder', dir }, file, Date.parse('2026-02-01T00:00:00Z'));
  const source = await entriesOf(dir);
  assert.equal(source.map((e) => e.action).at(-1), 'operator.export', 'the export is in the trail it exported');
  const target = join(tempDir('svc-audit-dst'), 'data');
  await importArchive(file, { kind: 'data-folder', dir: target }, Date.parse('2026-02-02T00:00:00Z'));
  const moved = await entriesOf(target);
  assert.equal(moved.slice(0, source.length), source, 'every entry as sealed, in order');
  const own = moved.at(-1)!;
  assert.is(own.action, 'operator.import');
  assert.is(own.actor.type, 'operator');
  assert.is(own.details.source, 'data-folder');
  assert.ok(ids.every((id) => moved.some((e) => e.id === id)));
  const verified = verifyAuditFolder(target);
  assert.ok(verified.ok, JSON.stringify(verified.broken));
  assert.is(verified.entries, source.length + 1);
  // The daemon appends after the import's entry, on the same chain.
  const audit = await openFileAuditStore(target);
  await audit.append(entry({ target: 'after' }));
  await audit.close();
  assert.ok(verifyAuditFolder(target).ok);
});

if (cluster)
  test('into PostgreSQL and back out to a folder: verify holds at each step', async () => {
    const { dir } = await folderWithTrail();
    const file = join(tempDir('svc-audit-archive'), 'a.svcdump');
    await exportArchive({ kind: 'data-folder', dir }, file);
    const url = await (await cluster()).createDatabase();
    await importArchive(file, { kind: 'postgres', url });
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const audit = createPostgresAuditStore(pool);
      const verified = await audit.verify();
      assert.ok(verified.ok, JSON.stringify(verified.broken));
      assert.is(verified.entries, 12, '10 entries, the export and the import');
      // A daemon writing afterwards continues the same chains (the heads were rebuilt).
      await audit.append(entry({ company_id: 'cmp_transfer1', target: 'after' }));
      assert.ok((await audit.verify()).ok);
      await audit.close();
    } finally {
      await pool.end();
    }
    const again = join(tempDir('svc-audit-archive'), 'b.svcdump');
    await exportArchive({ kind: 'postgres', url }, again);
    const folder = join(tempDir('svc-audit-dst'), 'data');
    await importArchive(again, { kind: 'data-folder', dir: folder });
    const back = verifyAuditFolder(folder);
    assert.ok(back.ok, JSON.stringify(back.broken));
    assert.is(back.entries, 15, 'plus the daemon entry, the second export and the second import');
  });

test.run();
