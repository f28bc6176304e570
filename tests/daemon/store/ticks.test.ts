import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TickStore } from '../../../daemon/store/types.js';
import { runtimeStoreImplementations } from '../../helpers/store-implementations.js';

/** The tick store's conformance suite, against memory and the Company journal. */
type Factory = () => Promise<{ store: TickStore; reopen?: () => Promise<TickStore> }>;
const implementations: Record<string, Factory> = Object.fromEntries(
  Object.entries(runtimeStoreImplementations).map(([name, make]) => [
    name,
    async () => {
      const { stores, reopen } = await make();
      return { store: stores.ticks, reopen: reopen && (async () => (await reopen()).ticks) };
    },
  ]),
);

const T = (m: number) => new Date(Date.UTC(2026, 0, 15, 12, m)).toISOString();

for (const [name, make] of Object.entries(implementations)) {
  const test = suite(`tick store conformance: ${name}`);

  test('a tick is claimed once; earlier or equal ticks are refused', async () => {
    const { store } = await make();
    assert.equal(await store.commit([{ id: 'a', active: true, baseline: T(0), tick: T(5) }]), [
      { id: 'a', tick: T(5) },
    ]);
    assert.equal(await store.commit([{ id: 'a', active: true, tick: T(5) }]), []);
    assert.equal(await store.commit([{ id: 'a', active: true, tick: T(4) }]), []);
    assert.equal(
      await store.commit([
        { id: 'a', active: true, tick: T(6) },
        { id: 'a', active: true, tick: T(7) },
      ]),
      [
        { id: 'a', tick: T(6) },
        { id: 'a', tick: T(7) },
      ],
    );
    assert.equal(await store.get('a'), { last_tick: T(7), active: true, baseline: T(0) });
  });

  test('ticks at or before the baseline are refused', async () => {
    const { store } = await make();
    assert.equal(await store.commit([{ id: 'a', active: true, baseline: T(10), tick: T(10) }]), []);
    assert.equal(await store.commit([{ id: 'a', active: true, tick: T(11) }]), [{ id: 'a', tick: T(11) }]);
  });

  test('of many concurrent claims of one tick exactly one wins', async () => {
    const { store } = await make();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => store.commit([{ id: 'a', active: true, baseline: T(0), tick: T(1) }])),
    );
    assert.is(results.filter((r) => r.length === 1).length, 1);
  });

  test('active state and baseline are kept; forget drops a cursor', async () => {
    const { store, reopen } = await make();
    await store.commit([
      { id: 'a', active: false, baseline: T(3) },
      { id: 'b', active: true, baseline: T(1), tick: T(2) },
    ]);
    assert.equal(await store.get('a'), { last_tick: null, active: false, baseline: T(3) });
    assert.equal((await store.ids()).sort(), ['a', 'b']);
    assert.equal([...(await store.cursors()).keys()].sort(), ['a', 'b']);
    assert.equal((await store.cursors()).get('a'), { last_tick: null, active: false, baseline: T(3) });
    await store.forget(['a']);
    assert.is(await store.get('a'), undefined);
    if (reopen) {
      const again = await reopen();
      assert.equal(await again.get('b'), { last_tick: T(2), active: true, baseline: T(1) });
      assert.is(await again.get('a'), undefined);
      assert.equal(await again.commit([{ id: 'b', active: true, tick: T(2) }]), [], 'a claim survives a restart');
    }
  });

  test.run();
}
