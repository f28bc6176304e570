import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { notFound } from '../http/api-error.js';
import { userOf } from './user-guard.js';
import { validate } from '../http/validate.js';
import type { SessionRecord } from '../store/types.js';
import { revokeSessionBody as revokeBody } from '../../shared/schemas/auth.js';

/** One row of GET /api/auth/sessions. */
function presentSession(s: SessionRecord, currentId: string) {
  return {
    id: s.id,
    created_at: s.created_at,
    last_seen_at: s.last_seen_at,
    expires_at: s.expires_at,
    method: s.method,
    verified: s.kind === 'full',
    user_agent: s.user_agent,
    ip: s.ip,
    current: s.id === currentId,
  };
}

/** GET /api/auth/sessions → { sessions: [...] }, newest first, the caller's marked `current: true`. */
export function listSessions(deps: Deps): Middleware {
  return async (ctx) => {
    const { user, session } = userOf(ctx);
    const rows = await deps.stores.sessions.listActive(user.id, isoAt(deps.clock.now()));
    ctx.body = { sessions: rows.map((s) => presentSession(s, session.id)).reverse() };
  };
}

/**
 * POST /api/auth/sessions/revoke {session_id} → { ok, revoked, current }. Another user's session
 * id answers 404 exactly like an unknown one, and changes nothing.
 */
export function revokeSession(deps: Deps): Middleware {
  return async (ctx) => {
    const { user, session } = userOf(ctx);
    const input = validate(revokeBody, ctx.request.body);
    const done = await deps.stores.sessions.revoke(input.session_id, user.id, isoAt(deps.clock.now()));
    if (!done) throw notFound(`No active session ${input.session_id} on your account.`, ErrorCode.sessionNotFound);
    ctx.body = { ok: true, revoked: input.session_id, current: input.session_id === session.id };
  };
}

/** POST /api/auth/sessions/revoke-others → { ok, revoked }: ends every session but the caller's. */
export function revokeOtherSessions(deps: Deps): Middleware {
  return async (ctx) => {
    const { user, session } = userOf(ctx);
    const revoked = await deps.stores.sessions.revokeAll(user.id, isoAt(deps.clock.now()), session.id);
    ctx.body = { ok: true, revoked };
  };
}

/** POST /api/auth/logout → { ok }: ends the caller's own session (what `svc logout` calls). */
export function logout(deps: Deps): Middleware {
  return async (ctx) => {
    const { user, session } = userOf(ctx);
    await deps.stores.sessions.revoke(session.id, user.id, isoAt(deps.clock.now()));
    ctx.body = { ok: true };
  };
}
