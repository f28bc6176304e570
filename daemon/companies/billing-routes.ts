import { Router } from '@koa/router';
import type { Deps } from '../deps.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import { tierAllowsKeys } from '../access/tier-gate.js';

/**
 * `GET /api/billing/plan` → the caller's tier and what it unlocks. Changing tiers is billing's job on
 * the platform and the operator's on a local daemon (`POST /api/dev/tier`, CONTRACT §3).
 */
export function billingRoutes(deps: Deps): Router {
  const router = new Router({ prefix: '/api/billing' });
  router.get('/plan', requireUser(deps), async (ctx) => {
    const { tier } = userOf(ctx).user;
    ctx.body = { tier, api_keys: tierAllowsKeys(tier), mcp: tierAllowsKeys(tier), dashboard: true };
  });
  return router;
}
