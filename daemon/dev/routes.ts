import { findUserByEmail } from '../auth/find-account.js';
import { normalizeEmail } from '../auth/email-codes.js';
import { Router } from '@koa/router';
import { ErrorCode } from '../../shared/errors.js';
import type { Deps } from '../deps.js';
import { notFound } from '../http/api-error.js';
import { matchOperatorToken, requireOperator } from '../http/operator-guard.js';
import { validate } from '../http/validate.js';
import { createInvite } from './invites.js';
import { seedRoutes } from './seed-routes.js';
import { clockRoutes } from './clock-routes.js';
import { devMailQuery as mailQuery, devTierBody as tierBody } from '../../shared/schemas/dev.js';

/** The operator surface of a local daemon (CONTRACT §3): captured mail, invites, tiers. */
export function devRoutes(deps: Deps): Router {
  // No prefix: a prefixed router's `use` layer would match case-sensitively while its routes do not
  // (http/use-layer-case.ts), and this guard must hold for every spelling the routes answer.
  const router = new Router();
  router.use(requireOperator(deps.checkOperatorToken ?? matchOperatorToken(deps.secrets.operatorToken)));

  router.get('/api/dev/mail', async (ctx) => {
    const query = validate(mailQuery, ctx.query);
    ctx.body = {
      mail: await deps.stores.outbox.list({
        to: query.to === undefined ? undefined : normalizeEmail(query.to),
        sinceId: query.since_id,
      }),
    };
  });

  router.post('/api/dev/invites', async (ctx) => {
    ctx.status = 201;
    ctx.body = { code: await createInvite(deps) };
  });

  router.post('/api/dev/tier', async (ctx) => {
    const body = validate(tierBody, ctx.request.body);
    const user = await findUserByEmail(deps.stores.users, body.email);
    if (!user) throw notFound(`No user has the e-mail ${body.email}.`, ErrorCode.userNotFound);
    const updated = await deps.stores.users.setTier(user.id, body.tier);
    ctx.body = { ok: true, user: { id: user.id, email: user.email, tier: updated?.tier ?? body.tier } };
  });

  // `svc dev seed` and `svc dev clock` (docs/dev-loop.md)
  seedRoutes(router, deps);
  clockRoutes(router, deps);

  return router;
}
