import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { memoryFlow } from '../../../daemon/store/runtime/flow-memory.js';
import { createPostgresFlowStore } from '../../../daemon/store/postgres/runtime/flow.js';
import type { FlowStore } from '../../../daemon/store/flow-types.js';
import { freshCompany, runtimeTestPools } from '../../helpers/postgres-runtime-stores.js';

/**
 * Throttle windows: the memory store counts with a window per key that drops old times as the
 * clock passes them. Its answers must be those of the plain definition — a filter over every time
 * counted — and those of the database, whatever the limit, period and clock moves.
 */
type Step = { key: string; atMs: number; limit: number; periodMs: number };

/** A seeded sequence of throttle checks over a few keys, the clock moving forward (and back, if asked). */
function steps(seed: number, count: number, setBack: boolean): Step[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let at = 1_700_000_000_000;
  const out: Step[] = [];
  for (let i = 0; i < count; i++) {
    const r = next();
    if (setBack && r < 0.05) at -= Math.floor(next() * 90_000);
    else at += Math.floor(next() * (r < 0.2 ? 70_000 : 2_000));
    const k = Math.floor(next() * 4);
    // Each key keeps its policy, as a rule's throttle does between updates.
    out.push({
      key: `cev_${k}#t|*`,
      atMs: at,
      limit: [1, 3, 10, 50][k]!,
      periodMs: [5_000, 30_000, 60_000, 200_000][k]!,
    });
  }
  return out;
}

/**
 * The definition: every time counted, kept while within its period, the newest deciding when a
 * key's window has expired (what the database's sweep removes, and the memory store's once a
 * minute of clock time or when the clock is set back).
 */
function reference() {
  const times = new Map<string, { at: number[]; expires: number }>();
  let swept = Number.NEGATIVE_INFINITY;
  return (step: Step): boolean => {
    if (step.atMs - swept >= 60_000 || step.atMs < swept) {
      swept = step.atMs;
      for (const [k, w] of times) if (w.expires <= step.atMs) times.delete(k);
    }
    const w = times.get(step.key) ?? { at: [], expires: 0 };
    w.at = w.at.filter((t) => t > step.atMs - step.periodMs);
    const ok = w.at.length < step.limit;
    if (ok) w.at.push(step.atMs), (w.expires = step.atMs + step.periodMs);
    times.set(step.key, w);
    return ok;
  };
}

const run = async (store: FlowStore, sequence: Step[]) => {
  const out: boolean[] = [];
  for (const s of sequence) out.push(await store.admit(s.key, s.atMs, s.limit, s.periodMs));
  return out;
};

test('memory windows answer as a filter over every time counted, the clock moving forward', async () => {
  for (const seed of [1, 2, 3]) {
    const sequence = steps(seed, 3000, false);
    const expected = sequence.map(reference());
    assert.ok(expected.includes(false) && expected.includes(true), 'the sequence both admits and refuses');
    assert.equal(await run(memoryFlow(), sequence), expected, `seed ${seed}`);
  }
});

test('memory windows answer the same when a dev clock is set back', async () => {
  for (const seed of [4, 5, 6]) {
    const sequence = steps(seed, 3000, true);
    assert.ok(sequence.some((s, i) => i > 0 && s.atMs < sequence[i - 1]!.atMs));
    assert.equal(await run(memoryFlow(), sequence), sequence.map(reference()), `seed ${seed}`);
  }
});

test('a window of many times drops them as they leave the period', async () => {
  const store = memoryFlow();
  const key = 'cev_1#t|*';
  for (let i = 0; i < 5000; i++) assert.ok(await store.admit(key, 1_000 + i, 5000, 10_000));
  assert.not.ok(await store.admit(key, 6_000, 5000, 10_000), 'full');
  // At 12 000 the times up to 2 000 have left: 1001 of them.
  for (let i = 0; i < 1001; i++) assert.ok(await store.admit(key, 12_000, 5000, 10_000), `slot ${i}`);
  assert.not.ok(await store.admit(key, 12_000, 5000, 10_000));
  await store.forget('cev_1#');
  assert.ok(await store.admit(key, 12_000, 1, 10_000), 'a forgotten rule starts afresh');
});

const pools = runtimeTestPools();
if (pools) {
  test('the database answers as the memory store does', async () => {
    const [db] = await pools();
    const sequence = steps(7, 400, false);
    const expected = await run(memoryFlow(), sequence);
    assert.equal(await run(createPostgresFlowStore(db.pool, freshCompany()), sequence), expected);
  });
}

test.run();
