import { isoAt } from '../../clock.js';
import type { Deps } from '../../deps.js';
import { verifyPassword } from '../passwords.js';
import { spendSecondFactor } from './second-factor.js';
import {
  matchTotpStep,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  totpOf,
  totpSealer,
  type TotpState,
} from './totp-codes.js';

type EnrolDeps = Pick<Deps, 'clock' | 'stores' | 'secrets' | 'config' | 'random'>;

/** What each step answers; expected "no" answers are values. */
export type BeginResult =
  | { ok: true; secret: string; otpauth_uri: string; expires_at: string }
  | { ok: false; reason: 'already_enabled' };
export type ConfirmResult =
  | { ok: true; recovery_codes: string[] }
  | { ok: false; reason: 'not_pending' | 'wrong_code' };

/**
 * Step 1 (as GitHub and Google do it): a new secret, stored sealed but not active until a code
 * from the app proves the user copied it. Starting again replaces a pending secret.
 */
export async function beginTotpEnrolment(deps: EnrolDeps, userId: string, account: string): Promise<BeginResult> {
  const secret = newTotpSecret();
  const now = deps.clock.now();
  const pendingUntil = isoAt(now + deps.config.auth.factors.totpEnrolTtlMs);
  let enabled = false;
  await deps.stores.users.update(userId, (user) => {
    if (totpOf(user)?.enabled_at) {
      enabled = true;
      return;
    }
    const state: TotpState = {
      secret_sealed: totpSealer(deps.secrets.codeKey).seal(secret),
      enabled_at: null,
      pending_until: pendingUntil,
      last_step: null,
      recovery: [],
    };
    user.totp = state;
  });
  if (enabled) return { ok: false, reason: 'already_enabled' };
  return {
    ok: true,
    secret,
    otpauth_uri: otpauthUri(deps.config.auth.factors.totpIssuer, account, secret),
    expires_at: pendingUntil,
  };
}

/** Step 2: the first code activates TOTP (and counts as used), and the recovery codes are made — shown this once. */
export async function confirmTotpEnrolment(deps: EnrolDeps, userId: string, code: string): Promise<ConfirmResult> {
  const now = deps.clock.now();
  const { codes, hashes } = newRecoveryCodes(deps.random, deps.secrets.codeKey);
  let result: ConfirmResult = { ok: false, reason: 'not_pending' };
  await deps.stores.users.update(userId, (user) => {
    const totp = totpOf(user);
    if (!totp || totp.enabled_at || !totp.pending_until || totp.pending_until <= isoAt(now)) return;
    const step = matchTotpStep(totpSealer(deps.secrets.codeKey).open(totp.secret_sealed), code.trim(), now, null);
    if (step === null) {
      result = { ok: false, reason: 'wrong_code' };
      return;
    }
    Object.assign(totp, {
      enabled_at: isoAt(now),
      pending_until: null,
      last_step: step,
      recovery: hashes.map((hash) => ({ hash, used_at: null })),
    });
    result = { ok: true, recovery_codes: codes };
  });
  return result;
}

/** Turning TOTP off needs a current code, a recovery code, or the password: a stolen session alone cannot. */
export async function disableTotp(
  deps: EnrolDeps,
  userId: string,
  proof: { code?: string; password?: string },
): Promise<'disabled' | 'not_enabled' | 'refused'> {
  const user = await deps.stores.users.findById(userId);
  if (!user || !totpOf(user)?.enabled_at) return 'not_enabled';
  let proven = false;
  if (proof.code) proven = (await spendSecondFactor(deps, userId, proof.code)) !== null;
  else if (proof.password && user.password_hash)
    proven = await verifyPassword(proof.password, user.password_hash, deps.config.auth.passwordHash.maxmem);
  if (!proven) return 'refused';
  await deps.stores.users.update(userId, (u) => {
    u.totp = null;
  });
  return 'disabled';
}

/** New recovery codes (the old ones stop working), after proving a current code. */
export async function regenerateRecoveryCodes(deps: EnrolDeps, userId: string, code: string): Promise<string[] | null> {
  if ((await spendSecondFactor(deps, userId, code)) === null) return null;
  const { codes, hashes } = newRecoveryCodes(deps.random, deps.secrets.codeKey);
  await deps.stores.users.update(userId, (user) => {
    const totp = totpOf(user);
    if (totp) totp.recovery = hashes.map((hash) => ({ hash, used_at: null }));
  });
  return codes;
}
