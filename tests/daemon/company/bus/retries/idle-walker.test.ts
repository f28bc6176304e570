import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRetryWalker, RETRY_POLL_MS } from '../../../../../daemon/company/bus/retry/walker.js';
import { cryptoRandom } from '../../../../../daemon/random.js';
import type { EventRow } from '../../../../../daemon/company/company-services.js';
import { createMemoryRuntimeStores } from '../../../../../daemon/store/runtime/open.js';
import type { PendingRetry, RetryStore } from '../../../../../daemon/store/types.js';
import { createFakeTimer } from '../../../../helpers/emitters-app.js';
import { FakeClock } from '../../../../helpers/fake-clock.js';

/**
 * The retry walker of a Company with no retries polls with `due` alone: the next-due read is made
 * again only once a retry is scheduled here, or a poll finds one due (scheduled by another daemon);
 * a wake that comes while that read is in flight is not lost to the read's stale answer.
 */
/** A walker over the memory stores with `retries` (a wrapper of the store, counting or delaying its reads). */
const walkerOver = (
  clock: FakeClock,
  stores: ReturnType<typeof createMemoryRuntimeStores>,
  retries: RetryStore,
  ran: string[] = [],
) => {
  const timer = createFakeTimer();
  const walker = createRetryWalker({
    clock,
    random: cryptoRandom,
    retries,
    firings: stores.firings,
    configured: { get: async (id) => ({ id, type: 'webhook:x', enabled: true, status: 'active' }) as never },
    events: { get: async (id) => ({ id, type: 'webhook:x' }) as EventRow },
    runCall: async (c, call, event) => {
      ran.push(event.id);
      return { firing: { configured_event_id: c.id, tool: call.tool, ok: true, result: null }, retryable: false };
    },
    timer,
  });
  return { walker, timer };
};

/** What dispatch does for a failed call: the firing and its retry, due at `dueMs`, in one write. */
const scheduleRetry = (stores: ReturnType<typeof createMemoryRuntimeStores>, dueMs: number) => {
  const retry: PendingRetry = {
    id: 'evt_1|cev_a|0',
    event_id: 'evt_1',
    configured_event_id: 'cev_a',
    call_index: 0,
    call: { tool: 'quests.create', args: { title: 'x' } },
    policy: { max_attempts: 3, backoff: { initial_ms: 1000, max_ms: 1000, jitter: 'full' } },
    attempt: 2,
    due_ms: dueMs,
    last_delay_ms: 1000,
    state: 'pending',
    lease_until_ms: null,
  };
  return stores.firings.add('evt_1', [{ configured_event_id: 'cev_a', tool: 'quests.create', ok: false }], [], {
    put: [retry],
  });
};

test('an idle Company polls without the next-due read; a retry scheduled or found brings it back', async () => {
  const clock = new FakeClock();
  const stores = createMemoryRuntimeStores();
  let nextReads = 0;
  const retries = { ...stores.retries, nextDueMs: () => (nextReads++, stores.retries.nextDueMs()) };
  const ran: string[] = [];
  const { walker, timer } = walkerOver(clock, stores, retries, ran);
  const poll = async () => {
    clock.advance(RETRY_POLL_MS);
    timer.fire();
    await walker.walk(); // after the timer's walk: its re-arm is done
  };
  walker.start();
  await walker.walk();
  assert.is(nextReads, 1, 'the walk at start looks once');
  for (let i = 0; i < 5; i++) await poll();
  assert.is(nextReads, 1, 'idle polls do not look again');
  assert.ok(
    timer.delays.every((ms) => ms <= RETRY_POLL_MS),
    'it still polls every minute',
  );

  // A retry put by another daemon (straight into the store), due in 30 s: the next poll finds it.
  await scheduleRetry(stores, clock.now() + 30_000);
  await poll();
  assert.equal(ran, ['evt_1']);
  const afterFound = nextReads;
  assert.ok(afterFound > 1, 'a walk that found a retry looks for the next one');

  // A retry scheduled here wakes the walker, and the walk after it looks again.
  await poll();
  const idle = nextReads;
  walker.wake(clock.now() + 5_000);
  await walker.walk();
  assert.is(nextReads, idle + 1);
  await walker.stop();
});

test('a retry woken while the re-arm read is in flight is still timed to its due time', async () => {
  const clock = new FakeClock();
  const stores = createMemoryRuntimeStores();
  const gate: { release: (() => void) | null } = { release: null };
  const retries = {
    ...stores.retries,
    nextDueMs: async () => {
      const answer = await stores.retries.nextDueMs(); // read now (before the dispatch's write)…
      await new Promise<void>((r) => (gate.release = r)); // …answered later
      return answer;
    },
  };
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  const { walker, timer } = walkerOver(clock, stores, retries);
  walker.start();
  await settle();
  assert.ok(gate.release, 'the re-arm read is in flight');
  const due = clock.now() + 90_000;
  await scheduleRetry(stores, due);
  walker.wake(due); // what dispatch does after its write
  gate.release!();
  await settle();
  // First poll (60 s): nothing due yet; the walker must now aim at the retry (30 s on).
  clock.advance(RETRY_POLL_MS);
  timer.fire();
  await settle();
  gate.release?.(); // a next-due read, if one was made, answers
  await settle();
  assert.is(timer.delays.at(-1), due - clock.now(), 'armed for the retry, not for another bare poll');
  await walker.stop();
});

test.run();
