import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRetryWalker, RETRY_POLL_MS } from '../../../../daemon/events/retry/walker.js';
import { cryptoRandom } from '../../../../daemon/random.js';
import type { EventRow } from '../../../../daemon/runtime/services.js';
import { createMemoryRuntimeStores } from '../../../../daemon/store/runtime/open.js';
import type { PendingRetry } from '../../../../daemon/store/types.js';
import { createFakeTimer } from '../../../helpers/emitters-app.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

/**
 * Review of 082eb81: a retry scheduled here (dispatch writes it, then calls wake) while the walker's
 * re-arm has its next-due read in flight. The read answers "none" (it ran before the write), so the
 * walker sets nonePending and re-arms for a bare poll, over the timer the wake set; from then on
 * every idle poll skips the next-due read, so the retry runs at the first poll after it is due
 * (up to a minute late) instead of at its due time.
 */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

test('a retry woken during the re-arm read is still timed to its due time', async () => {
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
  const timer = createFakeTimer();
  const walker = createRetryWalker({
    clock,
    random: cryptoRandom,
    retries,
    firings: stores.firings,
    configured: { get: async (id) => ({ id, type: 'webhook:x', enabled: true, status: 'active' }) as never },
    events: { get: async (id) => ({ id, type: 'webhook:x' }) as EventRow },
    runCall: async (c, call) => ({
      firing: { configured_event_id: c.id, tool: call.tool, ok: true, result: null },
      retryable: false,
    }),
    timer,
  });
  walker.start();
  await settle();
  assert.ok(gate.release, 'the re-arm read is in flight');
  const due = clock.now() + 90_000;
  const retry: PendingRetry = {
    id: 'evt_1|cev_a|0',
    event_id: 'evt_1',
    configured_event_id: 'cev_a',
    call_index: 0,
    call: { tool: 'quests.create', args: { title: 'x' } },
    policy: { max_attempts: 3, backoff: { initial_ms: 90_000, max_ms: 90_000, jitter: 'none' } } as never,
    attempt: 2,
    due_ms: due,
    last_delay_ms: 90_000,
    state: 'pending',
    lease_until_ms: null,
  };
  // What dispatch does: the write, then the wake.
  await stores.firings.add('evt_1', [{ configured_event_id: 'cev_a', tool: 'quests.create', ok: false }], [], {
    put: [retry],
  });
  walker.wake(due);
  gate.release!();
  await settle();
  // First poll (60 s): nothing due yet; the walker should now aim at the retry (30 s on).
  clock.advance(RETRY_POLL_MS);
  timer.fire();
  await settle();
  gate.release?.(); // a next-due read, if one was made, answers
  await settle();
  assert.is(timer.delays.at(-1), due - clock.now(), 'armed for the retry, not for another bare poll');
  await walker.stop();
});

test.run();
