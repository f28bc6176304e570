import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { challengeSpec } from '../../../daemon/store/accounts/tables.js';
import { openJournalSpace } from '../../../daemon/store/journal/index.js';
import { openFileStores } from '../../../daemon/store/index.js';
import type { ChallengeRecord } from '../../../daemon/store/factor-types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { storeDepsFor } from '../../helpers/store-implementations.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * SIWE nonces and passkey login challenges are handed to anyone who asks. A row that ended or
 * expired can never be consumed again, so it must not stay: each new challenge forgets a few of
 * the dead ones (a bounded amount per write, never a scan of the table), until none is left.
 */
const at = (min: number) => new Date(Date.parse('2026-01-15T12:00:00Z') + min * 60_000).toISOString();
const row = (i: number, createdMin: number): ChallengeRecord => ({
  id: `chl_${i}`,
  kind: 'siwe_nonce',
  subject: '0xabc',
  secret_hash: `h${i}`,
  tries: 0,
  created_at: at(createdMin),
  expires_at: at(createdMin + 10),
  ended_at: null,
});

const storedIds = async (dir: string) => {
  const space = await openJournalSpace(dir, { name: 'accounts' });
  const ids = [...space.define(challengeSpec).all()].map((c) => c.id);
  await space.close();
  return ids;
};

test('ended and expired challenges are forgotten a few per new one; live ones stay', async () => {
  const dir = tempDir('svc-store');
  const stores = await openFileStores(dir, storeDepsFor(new FakeClock()));
  for (let i = 0; i < 200; i++) await stores.challenges.create(row(i, 0));
  assert.ok(await stores.challenges.consume('siwe_nonce', 'h0', at(1)));
  await stores.challenges.create(row(1000, 5)); // minute 5: chl_0 ended at minute 1, the 199 others are live
  assert.is((await storedIds(dir)).includes('chl_0'), false, 'the ended one went');
  await stores.challenges.create(row(1001, 11)); // minute 11: all of the first 200 have expired
  const afterOne = await storedIds(dir);
  assert.ok(afterOne.length > 150, `one write removed ${201 - afterOne.length} rows: a bounded amount`);
  for (let i = 0; i < 30; i++) await stores.challenges.create(row(2000 + i, 11));
  const kept = await storedIds(dir);
  assert.equal(
    kept.filter((id) => Number(id.slice(4)) < 1000),
    [],
    'every expired row is gone',
  );
  assert.ok(kept.includes('chl_1000') && kept.includes('chl_1001'));
  // A live row is still consumable after the sweep.
  assert.ok(await stores.challenges.consume('siwe_nonce', 'h1000', at(12)));
  await stores.close();
});

test.run();
