import { Router } from '@koa/router';
import { ErrorCode } from '../../shared/errors.js';
import type { AuthLimits } from './limits.js';
import type { Deps } from '../deps.js';
import { notFound } from '../http/api-error.js';
import { requireUser, userOf } from './user-guard.js';
import { beginEmailChange, finishEmailChange } from './email-change.js';
import { presentCurrentSession, presentUser } from './me-view.js';

/** `/api/me*`: the caller's own account. Reading it is the one thing an unverified signup token may do besides verify and resend. */
export function meRoutes(deps: Deps, limits: AuthLimits): Router {
  const router = new Router();
  const anyUser = requireUser(deps, { allowUnverified: true });
  const fullUser = requireUser(deps);

  router.get('/api/me', anyUser, (ctx) => {
    const { user, session } = userOf(ctx);
    ctx.set('Cache-Control', 'no-store');
    // One object for the answer, not a copy of the presented user with the session spread in.
    const body: Record<string, unknown> = presentUser(user);
    body.session = presentCurrentSession(session);
    ctx.body = body;
  });

  router.get('/api/me/avatar', anyUser, (ctx) => {
    const { user } = userOf(ctx);
    if (!user.avatar) throw notFound('This account has no avatar.', ErrorCode.avatarNotSet);
    ctx.set('Cache-Control', 'private, max-age=300');
    // The bytes were checked against the type on upload; nosniff keeps a browser from guessing otherwise.
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = user.avatar.type;
    ctx.body = Buffer.from(user.avatar.data_base64, 'base64');
  });

  router.post('/api/me/email/change/begin', fullUser, beginEmailChange(deps, limits));
  router.post('/api/me/email/change/finish', fullUser, finishEmailChange(deps));
  return router;
}
