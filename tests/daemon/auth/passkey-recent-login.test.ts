import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { issueSession } from '../../../daemon/auth/session-issuer.js';
import { createUser } from '../../helpers/accounts.js';
import { SoftAuthenticator } from '../../helpers/soft-authenticator.js';
import { createTestApp } from '../../helpers/test-app.js';

/**
 * A passkey outlives every session: revoking sessions or resetting the password leaves it in place.
 * So a stolen (or left-open) session must not be enough to plant one: adding a passkey needs a
 * login from the last 10 minutes, as GitHub's sudo mode does.
 */
test('a session older than 10 minutes cannot add a passkey; a fresh login can', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  t.clock.advance(10 * 60_000 + 1000);
  const stale = await t.post('/api/auth/passkey/register-begin', { name: 'thief' }, u.auth);
  assert.equal([stale.status, stale.body.code], [403, 'recent_login_required']);
  assert.match(stale.body.error, /log in again/i);
  // The stale session still works for everything else.
  assert.is((await t.get('/api/auth/passkeys', u.auth)).status, 200);

  const { token } = await issueSession(t.deps, { user: u.user, kind: 'full', method: ['pwd'] });
  const fresh = { authorization: `Bearer ${token}` };
  const begin = await t.post('/api/auth/passkey/register-begin', { name: 'laptop' }, fresh);
  assert.is(begin.status, 200);
  const finish = await t.post(
    '/api/auth/passkey/register-finish',
    { response: new SoftAuthenticator().register(begin.body) },
    fresh,
  );
  assert.is(finish.status, 201);
});

test.run();
