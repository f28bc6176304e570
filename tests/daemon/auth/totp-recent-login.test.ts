import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { issueSession } from '../../../daemon/auth/session-issuer.js';
import { createUser } from '../../helpers/accounts.js';
import { createTestApp } from '../../helpers/test-app.js';

/**
 * Turning TOTP on with an app only the caller holds locks everyone else out of password, e-mail
 * code and wallet logins, and the caller keeps the recovery codes. A stolen or left-open session
 * must not be able to do that: starting an enrolment needs a login from the last 10 minutes.
 */
test('a session older than 10 minutes cannot start a TOTP enrolment; a fresh login can', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  t.clock.advance(10 * 60_000 + 1000);
  const stale = await t.post('/api/auth/totp/enroll', {}, u.auth);
  assert.equal([stale.status, stale.body.code], [403, 'recent_login_required']);
  assert.match(stale.body.error, /log in again/i);
  assert.is((await t.get('/api/auth/totp', u.auth)).body.enabled, false);

  const { token } = await issueSession(t.deps, { user: u.user, kind: 'full', method: ['pwd'] });
  const fresh = await t.post('/api/auth/totp/enroll', {}, { authorization: `Bearer ${token}` });
  assert.is(fresh.status, 200);
  assert.ok(fresh.body.secret);
});

test.run();
