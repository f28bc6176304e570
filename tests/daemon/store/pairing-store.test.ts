import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createMemoryPairingStore,
  type PairingRecord,
  type PairingStore,
} from '../../../daemon/store/pairing-store.js';
import { createPostgresPairingStore } from '../../../daemon/store/postgres/pairings.js';
import { openDatabase } from '../../../daemon/store/postgres/connect.js';
import { runMigrations } from '../../../daemon/store/postgres/migrate.js';
import { testPostgres } from '../../helpers/postgres.js';

/**
 * The pairing store's contract on every backend: in memory (one daemon) and PostgreSQL (team
 * mode), where two pools stand for two daemons: a pairing started on one is found, approved and
 * collected on the other, and the check-and-set is single use across them.
 */
type Pair = [PairingStore, PairingStore];
const backends: Record<string, () => Promise<Pair>> = {
  memory: async () => {
    const store = createMemoryPairingStore();
    return [store, store];
  },
};
const cluster = testPostgres();
if (cluster) {
  backends.postgres = async () => {
    const url = await (await cluster()).createDatabase();
    const [a, b] = await Promise.all([openDatabase(url), openDatabase(url)]);
    await runMigrations(a.pool);
    return [createPostgresPairingStore(a.pool), createPostgresPairingStore(b.pool)];
  };
}

const record = (id: string, over: Partial<PairingRecord> = {}): PairingRecord => ({
  id,
  device_hash: `dev-${id}`,
  code_hash: `code-${id}`,
  client: 'svc CLI \u0000 on "test"',
  user_agent: 'svc-cli/test',
  ip: '127.0.0.1',
  created_at: '2026-01-15T12:00:00.000Z',
  expires_at: '2026-01-15T12:10:00.000Z',
  status: 'pending',
  user_id: null,
  approved_by_session: null,
  approved_method: null,
  approver_password_changed_at: null,
  ...over,
});
const at = (minute: number) => `2026-01-15T12:${String(minute).padStart(2, '0')}:00.000Z`;

for (const [name, open] of Object.entries(backends)) {
  const test = suite(`pairing store (${name})`);

  test('started on one daemon, found by device or code on the other, exactly as stored', async () => {
    const [a, b] = await open();
    await a.create(record('p1'));
    assert.equal(await b.findByDevice('dev-p1'), record('p1'));
    assert.equal(await b.findByCode('code-p1'), record('p1'));
    assert.is(await b.findByDevice('dev-nope'), undefined);
  });

  test('a transition is one check-and-set: of many racing over both daemons one wins; expired ones never move', async () => {
    const [a, b] = await open();
    await a.create(record('p2'));
    const approve = { status: 'approved' as const, user_id: 'usr_1', approved_method: ['pwd'] };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).transition('p2', 'pending', approve, at(1))),
    );
    assert.is(results.filter(Boolean).length, 1);
    assert.equal(await a.findByDevice('dev-p2'), { ...record('p2'), ...approve });
    assert.is(await b.transition('p2', 'pending', { status: 'denied' }, at(2)), null, 'no longer pending');
    assert.is(await b.transition('p2', 'approved', { status: 'collected' }, at(10)), null, 'expired');
    const collected = await a.transition('p2', 'approved', { status: 'collected' }, at(9));
    assert.is(collected?.status, 'collected');
  });

  test('expired pairings are swept as new ones start', async () => {
    const [a, b] = await open();
    await a.create(record('old'));
    await b.create(record('new', { created_at: at(11), expires_at: '2026-01-15T12:21:00.000Z' }));
    assert.is(await a.findByDevice('dev-old'), undefined);
    assert.ok(await a.findByDevice('dev-new'));
  });

  test.run();
}
