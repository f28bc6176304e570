import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatEventId, parseEventId } from '../../../../daemon/store/event-log/index.js';

test('ids are fixed-width, so string order is sequence order', () => {
  assert.is(formatEventId(1), 'evt_0000000000000001');
  assert.is(formatEventId(9_007_199_254_740_991).length, 20);
  const ids = [1, 9, 10, 99, 100, 12345, 10 ** 12].map(formatEventId);
  assert.equal([...ids].sort(), ids);
  for (const seq of [1, 42, 10 ** 15]) assert.is(parseEventId(formatEventId(seq)), seq);
});

test('anything else is not an id', () => {
  for (const bad of [
    'evt_12',
    'evt_000000000000000x',
    'EVT_0000000000000001',
    ' evt_0000000000000001',
    'evt_00000000000000001',
    '',
    null,
    5,
  ]) {
    assert.is(parseEventId(bad), null, String(bad));
  }
});

test.run();
