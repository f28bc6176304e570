import { ErrorCode } from '../../shared/errors.js';
import type { Deps } from '../deps.js';
import { ApiError } from '../http/api-error.js';
import type { SessionRecord } from '../store/types.js';

/**
 * Some changes outlive every session: a passkey survives revocation and password resets, and a
 * TOTP app only the caller holds locks everyone else out. A stolen or left-open session must not be
 * enough for them, so they need a session from a recent login (GitHub's "sudo mode", in short).
 */
export function assertRecentLogin(deps: Pick<Deps, 'clock' | 'config'>, session: SessionRecord, action: string): void {
  const recentMs = deps.config.auth.factors.recentLoginMs;
  if (deps.clock.now() - Date.parse(session.created_at) <= recentMs) return;
  throw new ApiError(
    403,
    ErrorCode.recentLoginRequired,
    `${action} needs a recent login: log in again, then do it within ${Math.round(recentMs / 60_000)} minutes.`,
  );
}
