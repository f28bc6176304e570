import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { companyDataDir } from '../../../daemon/company/seam.js';
import { openJournalRuntimeStores } from '../../../daemon/store/runtime/open.js';
import { createArchiveWriter } from '../../../daemon/transfer/archive-writer.js';
import { runMain } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { recordsOf, runtimeFolder } from '../../helpers/transfer-folder.js';
import type { ArchiveRecord } from '../../../daemon/transfer/archive-tables.js';

// The move's own audit entries (export, import) are the audit transfer test's concern (audit-transfer.test.ts).
const withoutAudit = (rs: ArchiveRecord[]) => rs.filter((r) => r.table !== 'audit');

/**
 * The chain budget and the failures kept for replay move with `svc admin export|import`, and an
 * archive written before they were part of it still imports (as a Company with neither).
 */
const COMPANY = 'cmp_transfer1';

async function importInto(archive: string): Promise<string> {
  const target = join(tempDir('svc-flow-import'), 'data');
  const res = await runMain(['admin', 'import', '--in', archive, '--data', target]);
  assert.is(res.code, 0, res.err);
  return target;
}

async function budgetAndFailures(dir: string) {
  const s = await openJournalRuntimeStores(companyDataDir(dir, COMPANY));
  try {
    return { budget: await s.settings.get('chain_budget'), failures: await s.failures.list() };
  } finally {
    await s.close();
  }
}

test('a data folder → archive → data folder: the budget and every failure (replayed or not) are there', async () => {
  const source = await runtimeFolder(COMPANY);
  const archive = join(tempDir('svc-flow-archive'), 'a.svc-archive');
  const exported = await runMain(['admin', 'export', '--data', source, '--out', archive]);
  assert.is(exported.code, 0, exported.err);
  const moved = await importInto(archive);
  const before = await budgetAndFailures(source);
  assert.equal(before.budget, { max_firings: 50, max_tool_calls: null, within_ms: 600_000 });
  assert.equal(
    before.failures.map((f) => f.replay_event_id),
    [null, 'evt_0000000000000004'],
  );
  assert.equal(await budgetAndFailures(moved), before);
  assert.equal(withoutAudit(await recordsOf(moved)), withoutAudit(await recordsOf(source)));
  // Once replayed stays replayed: the moved failure cannot be replayed a second time.
  const s = await openJournalRuntimeStores(companyDataDir(moved, COMPANY));
  try {
    assert.is(await s.failures.claimReplay('evt_0000000000000003|cev_1|0', '2026-02-01T00:00:00.000Z'), undefined);
    assert.ok(await s.failures.claimReplay('evt_0000000000000002|cev_1|0', '2026-02-01T00:00:00.000Z'));
  } finally {
    await s.close();
  }
});

test('an archive of an earlier release (no settings, no failures) imports: no budget, no failures, the rest moved', async () => {
  const source = await runtimeFolder(COMPANY);
  const old = (await recordsOf(source)).filter((r) => r.table !== 'runtime.settings' && r.table !== 'runtime.failures');
  const archive = join(tempDir('svc-flow-old'), 'old.svc-archive');
  const writer = createArchiveWriter(archive, { svc_version: '0.1.0', source: 'data-folder', created_at: '' });
  for (const r of old) writer.add(r);
  writer.finish();
  const moved = await importInto(archive);
  assert.equal(await budgetAndFailures(moved), { budget: undefined, failures: [] });
  assert.equal(withoutAudit(await recordsOf(moved)), withoutAudit(old));
});

test.run();
