import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createIdGenerator } from '../../../daemon/ids.js';
import { cryptoRandom } from '../../../daemon/random.js';
import { openFileStores } from '../../../daemon/store/index.js';
import { createSealer } from '../../../daemon/store/sealer.js';
import type { ChallengeRecord } from '../../../daemon/store/factor-types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * SIWE nonces and passkey login challenges are handed to anyone who asks. A row that ended or
 * expired can never be consumed again, so it must not stay in factors.json (rewritten whole on
 * every new challenge) for a day: only live rows are kept.
 */
const at = (min: number) => new Date(Date.parse('2026-01-15T12:00:00Z') + min * 60_000).toISOString();
const row = (i: number, createdMin: number): ChallengeRecord => ({
  id: `chl_${i}`, kind: 'siwe_nonce', subject: '0xabc', secret_hash: `h${i}`, tries: 0, created_at: at(createdMin), expires_at: at(createdMin + 10), ended_at: null,
});

test('ended and expired challenges are dropped when a new one is stored; live ones stay', async () => {
  const dir = tempDir('svc-store');
  const clock = new FakeClock();
  const stores = await openFileStores(dir, { clock, ids: createIdGenerator(clock, cryptoRandom), sealer: createSealer(randomBytes(32)), outboxMax: 5 });
  for (let i = 0; i < 200; i++) await stores.challenges.create(row(i, 0));
  assert.ok(await stores.challenges.consume('siwe_nonce', 'h0', at(1)));
  await stores.challenges.create(row(1000, 5)); // the 199 others are still live at minute 5
  await stores.challenges.create(row(1001, 11)); // minute 11: all of the first 200 have expired
  await stores.flush();
  const kept = (JSON.parse(readFileSync(join(dir, 'factors.json'), 'utf8')) as { challenges: ChallengeRecord[] }).challenges.map((c) => c.id);
  assert.equal(kept, ['chl_1000', 'chl_1001']);
  // A live row is still consumable after the sweep.
  assert.ok(await stores.challenges.consume('siwe_nonce', 'h1000', at(12)));
});

test.run();
