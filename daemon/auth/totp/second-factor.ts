import { isoAt } from '../../clock.js';
import type { Deps } from '../../deps.js';
import {
  findRecoveryCode,
  hashRecoveryCode,
  looksLikeRecoveryCode,
  matchTotpStep,
  totpOf,
  totpSealer,
} from './totp-codes.js';

export type SecondFactorMethod = 'otp' | 'recovery_code';

/**
 * Checks a TOTP code or a recovery code against an enabled TOTP and spends it, in one atomic
 * user update: the accepted step becomes the last step (no replay, not even by a racing request),
 * a recovery code is marked used. Returns the method that matched, or null.
 */
export async function spendSecondFactor(
  deps: Pick<Deps, 'clock' | 'stores' | 'secrets'>,
  userId: string,
  rawCode: string,
): Promise<SecondFactorMethod | null> {
  const code = rawCode.trim();
  const now = deps.clock.now();
  const sealer = totpSealer(deps.secrets.codeKey);
  let method: SecondFactorMethod | null = null;
  await deps.stores.users.update(userId, (user) => {
    const totp = totpOf(user);
    if (!totp?.enabled_at) return;
    if (/^\d{6}$/.test(code)) {
      const step = matchTotpStep(sealer.open(totp.secret_sealed), code, now, totp.last_step);
      if (step === null) return;
      totp.last_step = step;
      method = 'otp';
    } else if (looksLikeRecoveryCode(code)) {
      const entry = findRecoveryCode(totp.recovery, hashRecoveryCode(deps.secrets.codeKey, code));
      if (!entry) return;
      entry.used_at = isoAt(now);
      method = 'recovery_code';
    }
  });
  return method;
}
