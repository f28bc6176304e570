import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createIdempotentRunner } from '../../../../daemon/company/bus/idempotency.js';
import { MAX_UNSTORED } from '../../../../daemon/company/bus/unstored-answers.js';
import type { IdempotencyStore } from '../../../../daemon/store/runtime-types.js';
import { createMemoryRuntimeStores } from '../../../../daemon/store/runtime/open.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

/**
 * The runner's answers that the store refused (idempotency.ts), on the one-daemon stores (no
 * claims): kept and replayed for the store's window, at most MAX_UNSTORED of them, and a closing
 * daemon does not wait on a store that never answers.
 */
const refusing = (store: IdempotencyStore, refuse: () => boolean): IdempotencyStore => ({
  ...store,
  remember: (...args) => (refuse() ? Promise.reject(new Error('no space left on device')) : store.remember(...args)),
});

test('without claims an answer the store refuses is replayed as long as the window lasts, and stored once it can be', async () => {
  const clock = new FakeClock();
  const { idempotency } = createMemoryRuntimeStores();
  let full = true;
  let pauses = 0;
  let next!: () => void;
  // Each pause moves the clock on by an hour; the 20th waits for the test (the disk is still full).
  const pause = () => {
    clock.advance(3600_000);
    return ++pauses < 20 ? Promise.resolve() : new Promise<void>((r) => (next = r));
  };
  const once = createIdempotentRunner(
    refusing(idempotency, () => full),
    clock.now,
    { pause },
  );
  let runs = 0;
  const run = async () => `event ${++runs}`;
  assert.equal(await once('emit', 'k', { type: 'x' }, run), { answer: 'event 1', replayed: false });
  while (pauses < 20) await new Promise((r) => setImmediate(r));
  assert.equal(await once('emit', 'k', { type: 'x' }, run), { answer: 'event 1', replayed: true }, '20 h later');
  full = false;
  next();
  await once.settled();
  assert.is(once.unstored(), 0);
  assert.is((await idempotency.get('emit\0k', clock.now()))?.answer, 'event 1');
  assert.is(runs, 1);
});

test('at most MAX_UNSTORED answers are kept: the oldest is given up, and said so', async () => {
  const clock = new FakeClock();
  const { idempotency } = createMemoryRuntimeStores();
  const problems: Array<Record<string, unknown>> = [];
  const once = createIdempotentRunner(
    refusing(idempotency, () => true),
    clock.now,
    {
      pause: () => new Promise<void>(() => {}),
      onProblem: (message, fields) => message.includes('given up') && problems.push(fields),
    },
  );
  for (let i = 0; i <= MAX_UNSTORED; i++) await once('emit', `k${i}`, { i }, async () => i);
  assert.is(once.unstored(), MAX_UNSTORED);
  assert.equal(problems, [{ scope: 'emit', why: 'too many answers unstored' }]);
  // The oldest is no longer answered from memory (the store never took it): its key runs again.
  assert.equal(await once('emit', 'k0', { i: 0 }, async () => 'again'), { answer: 'again', replayed: false });
  // Its new answer is refused too and takes a place, so the next oldest (k1) goes; k2 is still answered.
  assert.equal(await once('emit', 'k2', { i: 2 }, async () => 'again'), { answer: 2, replayed: true });
  assert.is(problems.length, 2);
});

test('closing does not wait on a store that never answers: what is left is given up and logged', async () => {
  const clock = new FakeClock();
  const { idempotency } = createMemoryRuntimeStores();
  let hang = false;
  const problems: string[] = [];
  const once = createIdempotentRunner(
    { ...idempotency, remember: () => (hang ? new Promise<void>(() => {}) : Promise.reject(new Error('EIO'))) },
    clock.now,
    {
      lastPassMs: 20,
      onProblem: (message, fields) => problems.push(`${message} (${String(fields.why ?? fields.err)})`),
    },
  );
  assert.equal(await once('emit', 'k', { type: 'x' }, async () => 'ran'), { answer: 'ran', replayed: false });
  hang = true; // the last pass's store never answers (a database partitioned away at shutdown)
  await once.close();
  assert.is(once.unstored(), 0);
  assert.equal(problems, [
    'idempotent answer not stored yet: the store refused it (EIO)',
    'idempotent answer given up: a repeat of its key may run again (the daemon is closing)',
  ]);
});

test.run();
