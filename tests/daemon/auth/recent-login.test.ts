import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assertRecentLogin, loginTimeOf } from '../../../daemon/auth/recent-login.js';
import { issueSession } from '../../../daemon/auth/session-issuer.js';
import { DomainError } from '../../../daemon/domain-error.js';
import { statusOfRefusal } from '../../../daemon/http/error-renderer.js';
import { createUser } from '../../helpers/accounts.js';
import { createTestApp } from '../../helpers/test-app.js';
import type { SessionRecord } from '../../../daemon/store/types.js';

/**
 * "When did this session's login happen" is the login's time, not the session's: a session made
 * from another inherits it, so copying a session never makes a fresh login.
 */
const row = (over: Partial<SessionRecord>): SessionRecord => ({
  id: 'ses_1',
  user_id: 'usr_1',
  kind: 'full',
  method: ['pwd'],
  created_at: '2026-01-15T12:00:00.000Z',
  last_seen_at: '2026-01-15T12:00:00.000Z',
  expires_at: '2026-01-16T12:00:00.000Z',
  revoked_at: null,
  user_agent: null,
  ip: null,
  ...over,
});

test('the login time: auth_at when set; a row from before it, its creation; an old paired row, unknown', () => {
  assert.is(loginTimeOf(row({ auth_at: '2026-01-15T11:00:00.000Z' })), Date.parse('2026-01-15T11:00:00.000Z'));
  assert.is(loginTimeOf(row({})), Date.parse('2026-01-15T12:00:00.000Z'));
  assert.is(loginTimeOf(row({ method: ['pairing', 'pwd'] })), null);
});

test('a session inheriting an old login is not recent however new it is; the refusal keeps its code', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  const loginAt = t.clock.now();
  t.clock.advance(11 * 60_000);
  const { session } = await issueSession(t.deps, {
    user: u.user,
    kind: 'full',
    method: ['pairing', 'pwd'],
    from: { authAt: loginAt, expiresAt: loginAt + 24 * 3600_000 },
  });
  assert.is(session.auth_at, new Date(loginAt).toISOString());
  assert.is(session.expires_at, new Date(loginAt + 24 * 3600_000).toISOString(), 'ends with the login it came from');
  try {
    assertRecentLogin(t.deps, session, 'Adding a passkey');
    assert.unreachable('an 11-minute-old login is not recent');
  } catch (err) {
    assert.instance(err, DomainError);
    const refusal = err as DomainError;
    assert.equal([statusOfRefusal(refusal.refusal), refusal.code], [403, 'recent_login_required']);
  }
  assert.not.throws(() => assertRecentLogin(t.deps, { ...session, auth_at: undefined, method: ['pwd'] }, 'x'));
  assert.throws(() => assertRecentLogin(t.deps, { ...session, auth_at: undefined }, 'x'), 'an old paired row');
});

test.run();
