import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSweeper, deadKey, metaSpec } from '../../../daemon/store/accounts/expiry.js';
import { codeSpec } from '../../../daemon/store/accounts/tables.js';
import { createMemorySpace } from '../../../daemon/store/engine/memory-space.js';
import type { TableSpec } from '../../../daemon/store/engine/types.js';
import { openFileStores } from '../../../daemon/store/index.js';
import type { CodeRecord } from '../../../daemon/store/types.js';
import { readAccountRows } from '../../helpers/account-rows.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { storeDepsFor } from '../../helpers/store-implementations.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** Incremental expiry (store/accounts/expiry.ts): a bounded amount per write, never a scan. */

interface Row {
  id: string;
  dies: number;
}
const rows: TableSpec<Row> = { name: 'rows', id: (r) => r.id, indexes: { dead: (r) => deadKey(r.dies) } };
const MIN = 60_000;
const T0 = Date.parse('2026-01-15T12:00:00Z');

test('each sweep removes at most 8 dead rows; rows still alive, or dying in the current minute, stay', async () => {
  const space = createMemorySpace();
  const table = space.define(rows);
  const meta = space.define(metaSpec);
  const sweeper = createSweeper(table, meta, (r) => r.id);
  await space.write((tx) => {
    for (let i = 0; i < 100; i++) tx.put(table, { id: `dead${i}`, dies: T0 + MIN });
    tx.put(table, { id: 'alive', dies: T0 + 60 * MIN });
    tx.put(table, { id: 'this-minute', dies: T0 + 3 * MIN + 1 });
  });
  // A new folder's cursor starts a week back: the first sweeps step over empty minutes (512 a write).
  const sizes = [table.size];
  for (let i = 0; i < 40; i++) {
    await space.write((tx) => sweeper.sweep(tx, T0 + 3 * MIN + 30_000));
    sizes.push(table.size);
  }
  const removed = sizes.slice(1).map((n, i) => sizes[i]! - n);
  assert.ok(
    removed.every((n) => n <= 8),
    `removed per write: ${removed}`,
  );
  assert.ok(removed.includes(8));
  assert.equal(
    [...table.all()].map((r) => r.id),
    ['alive', 'this-minute'],
  );
  assert.is(typeof meta.get('sweep:rows')?.cursor, 'number', 'the cursor is kept with the data');
});

test('codes: dead rows are forgotten a day after they ended, a few at each new code', async () => {
  const dir = tempDir('svc-store');
  const clock = new FakeClock(T0);
  const stores = await openFileStores(dir, storeDepsFor(clock));
  const code = (i: number, at: number): CodeRecord => ({
    id: `code_${String(i).padStart(4, '0')}`,
    purpose: 'login',
    email: `x${i}@example.com`,
    user_id: null,
    code_hash: 'ab'.repeat(32),
    link_hash: null,
    tries: 0,
    created_at: new Date(at).toISOString(),
    expires_at: new Date(at + 10 * MIN).toISOString(),
    ended_at: null,
  });
  for (let i = 0; i < 60; i++) await stores.codes.issue(code(i, T0));
  const dayLater = T0 + 10 * MIN + 24 * 3600_000 + MIN;
  await stores.codes.issue(code(1000, dayLater));
  assert.ok((await readAccountRows(dir, codeSpec)).length > 50, 'one write removes a bounded number');
  for (let i = 1; i < 10; i++) await stores.codes.issue(code(1000 + i, dayLater));
  assert.equal(
    (await readAccountRows(dir, codeSpec)).map((c) => c.id).filter((id) => id < 'code_1000'),
    [],
    'every dead row is gone',
  );
  await stores.close();
});

test.run();
