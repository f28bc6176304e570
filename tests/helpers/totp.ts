import { totpCodeAt } from '../../daemon/auth/totp/totp-codes.js';
import type { TestApp } from './test-app.js';
import type { TestUser } from './accounts.js';

/** Turns TOTP on for a test user through the enrolment routes; returns the secret and the recovery codes. */
export async function enableTotp(t: TestApp, user: TestUser): Promise<{ secret: string; recoveryCodes: string[] }> {
  const begin = await t.post('/api/auth/totp/enroll', {}, user.auth);
  if (begin.status !== 200) throw new Error(`enroll: ${begin.status} ${begin.text}`);
  const secret = begin.body.secret as string;
  const confirm = await t.post('/api/auth/totp/enroll/confirm', { code: totpCodeAt(secret, t.clock.now()) }, user.auth);
  if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${confirm.text}`);
  // The confirming code's step is spent; move to the next step so the test's first code is fresh.
  t.clock.advance(30_000);
  return { secret, recoveryCodes: confirm.body.recovery_codes };
}

/** The code an authenticator app shows now (offset in 30 s steps). */
export const codeNow = (t: TestApp, secret: string, steps = 0) => totpCodeAt(secret, t.clock.now() + steps * 30_000);
