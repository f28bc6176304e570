import type { SessionRecord, UserRecord } from '../store/types.js';
import { totpEnabled } from './totp/totp-codes.js';

/**
 * The user as the API shows it: never the password hash or the avatar bytes. The avatar is a URL
 * (GET /api/me/avatar, same bearer token) so GET /api/me stays small; `?v=` changes with the image.
 */
export function presentUser(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    email_verified: Boolean(user.email_verified_at),
    // A wallet-only account has no e-mail to verify (docs/auth.md), so nothing is pending for it.
    pending_verification: Boolean(user.email) && !user.email_verified_at,
    wallet_address: typeof user.wallet_address === 'string' ? user.wallet_address : null,
    totp_enabled: totpEnabled(user),
    tier: user.tier,
    display_name: user.display_name ?? null,
    timezone: user.timezone ?? null,
    locale: user.locale ?? null,
    avatar_url: user.avatar ? `/api/me/avatar?v=${Date.parse(user.avatar.updated_at)}` : null,
    has_password: Boolean(user.password_hash),
    pending_email: user.pending_email ?? null,
    welcome_completed: Boolean(user.welcome_completed_at),
    created_at: user.created_at,
  };
}

export function presentCurrentSession(session: SessionRecord) {
  return {
    id: session.id,
    method: session.method,
    verified: session.kind === 'full',
    created_at: session.created_at,
    expires_at: session.expires_at,
  };
}
