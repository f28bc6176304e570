import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createIdempotentRunner } from '../../../daemon/events/idempotency.js';
import { noteAppended } from '../../../daemon/events/past-append.js';
import { createMemoryRuntimeStores } from '../../../daemon/store/runtime/open.js';
import { FakeClock } from '../../helpers/fake-clock.js';

/**
 * The point of no return of an idempotent request, whatever route makes it: once the events bus
 * has appended one of its events (it reports each append), a failure later in the request (a
 * question's record, a second report) is remembered, and a repeat is refused instead of appending
 * again. A failure before any append leaves the key free.
 */
const runner = () => createIdempotentRunner(createMemoryRuntimeStores().idempotency, new FakeClock().now);

test('a request that fails after an append is not run again; one that fails before is', async () => {
  const once = runner();
  let runs = 0;
  const ask = async () => {
    runs++;
    await Promise.resolve();
    noteAppended('evt_0000000000000007'); // the question's event
    await Promise.resolve();
    throw new Error('the question could not be stored');
  };
  const first = await once('ask', 'q-1', { q: 'ship?' }, ask).catch((e: Error) => e);
  assert.is((first as Error).message, 'the question could not be stored');
  const repeat = await once('ask', 'q-1', { q: 'ship?' }, ask).catch((e) => e);
  assert.is(repeat.code, 'conflict');
  assert.match(repeat.message, 'appended evt_0000000000000007 and then failed (the question could not be stored)');
  assert.is(runs, 1);

  let tries = 0;
  const refused = async () => {
    tries++;
    if (tries === 1) throw new Error('refused before anything was appended');
    return 'ran';
  };
  await once('ask', 'q-2', { q: 'again?' }, refused).catch(() => {});
  assert.equal(await once('ask', 'q-2', { q: 'again?' }, refused), { answer: 'ran', replayed: false });
});

test('an append inside a nested idempotent request counts for the enclosing one too', async () => {
  const once = runner();
  const outer = () =>
    once('route', 'r-1', {}, async () => {
      await once('emit', 'e-1', {}, async () => {
        noteAppended('evt_0000000000000009');
        return 'emitted';
      });
      throw new Error('the route failed after its emit');
    });
  await outer().catch(() => {});
  const repeat = await outer().catch((e) => e);
  assert.match(repeat.message, 'appended evt_0000000000000009');
  // Appends outside any idempotent request are nobody's: nothing throws.
  noteAppended('evt_0000000000000010');
});

test.run();
