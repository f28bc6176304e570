import type { Context } from 'koa';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import type { SessionRecord, UserRecord } from '../store/types.js';
import { signToken, type TokenType } from './tokens.js';

/**
 * How a session was earned, RFC 8176 style. Every login method ends in `issueSession` with its own
 * value, so the sessions list and the token's `amr` say how each session began.
 */
export type AuthMethod =
  | 'pwd'
  | 'otp'
  | 'recovery_code'
  | 'email_code'
  | 'magic_link'
  | 'wallet'
  | 'passkey'
  | 'signup'
  | 'verify'
  | 'reset'
  | 'pairing'
  /** A short session the operator's `svc dev seed` acts through for a seeded user (daemon/dev/). */
  | 'seed';

export interface IssueSessionInput {
  user: UserRecord;
  /** `unverified` comes from signup before the e-mailed code: it reaches only verify, resend and GET /api/me. */
  kind: SessionRecord['kind'];
  method: AuthMethod[];
  /** The request, for the sessions list (user agent, client address). */
  ctx?: Pick<Context, 'get' | 'ip'>;
  /**
   * For a session made from another (a pairing): when that one's login happened, and when it
   * ends. The new session inherits the login time and ends no later (row and JWT alike), so
   * copying a session neither counts as a fresh login nor stretches a login past its lifetime.
   */
  from?: { authAt: number; expiresAt: number };
}

export interface IssuedSession {
  token: string;
  session: SessionRecord;
}

/** The one place a login becomes a session row plus its JWT, whatever the login method. */
export async function issueSession(
  deps: Pick<Deps, 'clock' | 'ids' | 'stores' | 'secrets' | 'config'>,
  input: IssueSessionInput,
): Promise<IssuedSession> {
  const now = deps.clock.now();
  const ttl = Math.min(deps.config.auth.sessionTtlMs, (input.from?.expiresAt ?? Infinity) - now);
  const session: SessionRecord = {
    id: deps.ids('ses'),
    user_id: input.user.id,
    kind: input.kind,
    method: input.method,
    created_at: isoAt(now),
    auth_at: isoAt(input.from?.authAt ?? now),
    last_seen_at: isoAt(now),
    expires_at: isoAt(now + ttl),
    revoked_at: null,
    user_agent: input.ctx?.get('User-Agent')?.slice(0, 256) || null,
    ip: input.ctx?.ip || null,
  };
  await deps.stores.sessions.create(session);
  const typ: TokenType = input.kind === 'full' ? 'session' : 'unverified';
  const token = signToken(
    deps.secrets.jwtSecret,
    { user_id: input.user.id, email: input.user.email, sid: session.id, typ, amr: input.method },
    now,
    ttl,
  );
  return { token, session };
}
