import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PendingRetry } from '../../../daemon/store/types.js';
import { runtimeStoreImplementations } from '../../helpers/store-implementations.js';

/**
 * The pending-retry store's conformance suite, against memory, the Company journal and
 * PostgreSQL. A retry is scheduled and settled with the firings that record it, in one write; a
 * claim is a check-and-set that exactly one of many concurrent claimers wins (two "daemons" on
 * PostgreSQL); everything survives a reopen.
 */
const T0 = Date.parse('2026-01-15T12:00:00Z');
const retry = (event: string, over: Partial<PendingRetry> = {}): PendingRetry => ({
  id: `${event}|cev_a|0`,
  event_id: event,
  configured_event_id: 'cev_a',
  call_index: 0,
  call: { tool: 'message_to', args: { to: 'reviewer', text: 'hi\u0000there' } },
  policy: { max_attempts: 3, backoff: { initial_ms: 1000, max_ms: 4000, jitter: 'full' } },
  attempt: 2,
  due_ms: T0 + 1000,
  last_delay_ms: 1000,
  state: 'pending',
  lease_until_ms: null,
  ...over,
});
const failed = { configured_event_id: 'cev_a', tool: 'message_to', ok: false, error: 'no', attempt: 1 };

for (const [name, make] of Object.entries(runtimeStoreImplementations)) {
  const test = suite(`retry store conformance: ${name}`);

  test('scheduled with its firing; due when its time comes, soonest first; kept across a reopen', async () => {
    const { stores, reopen } = await make();
    await stores.firings.add('evt_1', [failed], [], { put: [retry('evt_1', { due_ms: T0 + 2000 })] });
    await stores.firings.add('evt_2', [failed], [], { put: [retry('evt_2')] });
    assert.equal(await stores.firings.of('evt_1'), [failed]);
    assert.equal(await stores.retries.due(T0 + 999, 10), []);
    assert.equal(
      (await stores.retries.due(T0 + 2000, 10)).map((r) => r.event_id),
      ['evt_2', 'evt_1'],
    );
    assert.equal((await stores.retries.due(T0 + 2000, 1)).length, 1);
    assert.is(await stores.retries.nextDueMs(), T0 + 1000);
    assert.is(await stores.retries.countFor('cev_a'), 2);
    assert.is(await stores.retries.countFor('cev_b'), 0);
    const again = reopen ? await reopen() : stores;
    assert.equal(await again.retries.of('evt_1'), [retry('evt_1', { due_ms: T0 + 2000 })]);
  });

  test('a claim is a check-and-set: not before due, not another attempt, once of many', async () => {
    const { stores, reopen } = await make();
    await stores.firings.add('evt_1', [failed], [], { put: [retry('evt_1')] });
    const id = retry('evt_1').id;
    assert.is(await stores.retries.claim(id, 2, T0 + 999, 60_000), undefined);
    assert.is(await stores.retries.claim(id, 3, T0 + 1000, 60_000), undefined);
    // A second store over the same data: another daemon (PostgreSQL) or the same space.
    const other = reopen && name === 'postgres' ? await reopen() : stores;
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? other : stores).retries.claim(id, 2, T0 + 1000, 60_000)),
    );
    const won = claims.filter(Boolean);
    assert.is(won.length, 1);
    assert.equal(won[0], retry('evt_1', { state: 'running', lease_until_ms: T0 + 61_000 }));
    // Running: not due again until its lease runs out, and then only to be taken as interrupted.
    assert.equal(await stores.retries.due(T0 + 60_999, 10), []);
    assert.is(await stores.retries.nextDueMs(), T0 + 61_000);
    assert.is((await stores.retries.due(T0 + 61_000, 10)).length, 1);
    assert.is(await stores.retries.claim(id, 2, T0 + 61_000, 60_000), undefined);
    assert.is(await stores.retries.takeInterrupted(id, 2, T0 + 60_999), undefined);
    const taken = await Promise.all([
      stores.retries.takeInterrupted(id, 2, T0 + 61_000),
      other.retries.takeInterrupted(id, 2, T0 + 61_000),
    ]);
    assert.is(taken.filter(Boolean).length, 1);
    assert.equal(await stores.retries.of('evt_1'), []);
    assert.is(await stores.retries.nextDueMs(), null);
  });

  test('settling replaces or removes the record in the write that records the attempt', async () => {
    const { stores, reopen } = await make();
    await stores.firings.add('evt_1', [failed], [], { put: [retry('evt_1')] });
    const next = retry('evt_1', { attempt: 3, due_ms: T0 + 5000, last_delay_ms: 3000 });
    await stores.firings.add('evt_1', [{ ...failed, attempt: 2 }], [], { put: [next] });
    assert.equal(await stores.retries.of('evt_1'), [next]);
    await stores.firings.add('evt_1', [{ ...failed, attempt: 3, outcome: 'failed' }], [], { remove: [next.id] });
    const again = reopen ? await reopen() : stores;
    assert.equal(await again.retries.of('evt_1'), []);
    assert.is(await again.retries.countFor('cev_a'), 0);
    assert.equal(
      (await again.firings.of('evt_1')).map((f) => f.attempt),
      [1, 2, 3],
    );
  });

  test.run();
}
