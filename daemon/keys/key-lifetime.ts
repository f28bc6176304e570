import { ErrorCode } from '../../shared/errors.js';
import { formatDuration } from '../../shared/duration.js';
import { isoAt } from '../clock.js';
import { invalid } from '../domain-error.js';
import type { SecretKeyRecord } from '../store/tenancy-types.js';

export interface LifetimeAsked {
  expires_in?: number | undefined;
  expires_at?: string | undefined;
}

/**
 * When a new key expires: `expires_in` seconds from now, or at `expires_at`, or never. The daemon's
 * `--max-key-lifetime` caps what may be asked (a longer one is refused, naming the cap, rather
 * than quietly shortened: a CI job should learn now, not when its key dies early), and a key that
 * asks for no expiry on a capped daemon gets the cap.
 */
export function expiryFor(asked: LifetimeAsked, nowMs: number, capSeconds: number | undefined): string | null {
  if (asked.expires_in !== undefined && asked.expires_at !== undefined)
    throw invalid('Give expires_in or expires_at, not both.', ErrorCode.validationFailed);
  let expiresMs: number | null = null;
  if (asked.expires_in !== undefined) expiresMs = nowMs + asked.expires_in * 1000;
  if (asked.expires_at !== undefined) {
    expiresMs = Date.parse(asked.expires_at);
    if (!(expiresMs > nowMs))
      throw invalid(`expires_at ${asked.expires_at} is not in the future.`, ErrorCode.validationFailed);
  }
  if (capSeconds === undefined) return expiresMs === null ? null : isoAt(expiresMs);
  if (expiresMs === null) return isoAt(nowMs + capSeconds * 1000);
  if (expiresMs - nowMs > capSeconds * 1000) {
    throw invalid(
      `This daemon caps key lifetimes at ${formatDuration(capSeconds)} (${capSeconds} seconds, --max-key-lifetime); ask for that or less.`,
      ErrorCode.keyLifetimeTooLong,
      { max_key_lifetime_seconds: capSeconds },
    );
  }
  return isoAt(expiresMs);
}

/**
 * A rotation's new key keeps the old one's expiry policy: the same lifetime (from creation to
 * expiry) counted from now, or none; a cap lowered since shortens it to the cap.
 */
export function rotatedExpiry(old: SecretKeyRecord, nowMs: number, capSeconds: number | undefined): string | null {
  const lifetimeMs = old.expires_at ? Date.parse(old.expires_at) - Date.parse(old.created_at) : null;
  const capMs = capSeconds === undefined ? null : capSeconds * 1000;
  if (lifetimeMs === null || !Number.isFinite(lifetimeMs) || lifetimeMs <= 0)
    return capMs === null ? null : isoAt(nowMs + capMs);
  return isoAt(nowMs + (capMs === null ? lifetimeMs : Math.min(lifetimeMs, capMs)));
}
