import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiRequestError } from '../../../cli/errors.js';

// `svc totp enable` on a session older than 10 minutes: the daemon answers 403 recent_login_required.
test('recent_login_required tells the user to log in again', () => {
  const err = new ApiRequestError(
    403,
    'recent_login_required',
    'Turning on two-factor authentication needs a recent login: log in again, then do it within 10 minutes.',
    {},
  );
  assert.match(String(err.hint), /svc login/);
  assert.is(err.exitCode, 1);
});

test.run();
