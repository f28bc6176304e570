import type { Tier } from '../../shared/wire.js';
import { hashPassword } from '../../daemon/auth/passwords.js';
import { issueSession } from '../../daemon/auth/session-issuer.js';
import { isoAt } from '../../daemon/clock.js';
import type { UserRecord } from '../../daemon/store/types.js';
import type { TestApp } from './test-app.js';

export interface TestUser {
  user: UserRecord;
  /** A full session JWT. */
  token: string;
  /** `{ authorization: 'Bearer <token>' }`, ready to pass as headers. */
  auth: Record<string, string>;
  password: string;
}

let counter = 0;

/**
 * A verified user with a live session, made straight through the stores (not the signup routes),
 * for tests of everything that stands behind login.
 */
export async function createUser(
  t: TestApp,
  options: { email?: string; tier?: Tier; password?: string; verified?: boolean } = {},
): Promise<TestUser> {
  const email = options.email ?? `user${++counter}-${Date.now().toString(36)}@example.com`;
  const password = options.password ?? 'correct horse battery staple';
  const now = isoAt(t.clock.now());
  const user = await t.deps.stores.users.create({
    id: t.deps.ids('usr'),
    email: email.toLowerCase(),
    tier: options.tier ?? 'trial',
    created_at: now,
    email_verified_at: options.verified === false ? null : now,
    password_hash: await hashPassword(password, t.deps.config.auth.passwordHash),
  });
  const { token } = await issueSession(t.deps, {
    user,
    kind: options.verified === false ? 'unverified' : 'full',
    method: ['pwd'],
  });
  return { user, token, auth: { authorization: `Bearer ${token}` }, password };
}
