import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { claimTouch } from '../../../daemon/http/touch-throttle.js';

test('claimTouch: the first of requests arriving together writes the stamp; again after the window', () => {
  const daemon = {};
  assert.is(claimTouch(daemon, 'ses_1', 1_000, 60_000), true);
  assert.is(claimTouch(daemon, 'ses_1', 1_000, 60_000), false);
  assert.is(claimTouch(daemon, 'ses_1', 60_999, 60_000), false);
  assert.is(claimTouch(daemon, 'ses_2', 1_000, 60_000), true, 'per record');
  assert.is(claimTouch({}, 'ses_1', 1_000, 60_000), true, 'per daemon (stores object)');
  assert.is(claimTouch(daemon, 'ses_1', 61_000, 60_000), true);
  assert.is(claimTouch(daemon, 'ses_1', 500, 60_000), true, 'a clock set back does not silence the stamp');
});

test.run();
