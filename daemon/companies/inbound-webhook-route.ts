import { Router } from '@koa/router';
import type { Deps } from '../deps.js';
import { tooManyRequests } from '../http/api-error.js';
import { readRaw } from '../http/body.js';
import { createRateLimiter } from '../http/rate-limit.js';
import { readCompanySelector } from './tenant-selection.js';
import { deliveryRoute, enterCompany, MAX_WEBHOOK_BODY, refuseDelivery, type TenantCaller } from '../company/index.js';

/** Per client address: generous for a CI system, low enough that guessing secrets goes nowhere. */
const WEBHOOK_RATE = [{ limit: 120, windowMs: 60_000 }];

/**
 * `POST /api/webhooks/{channel}`: the one runtime route served WITHOUT a user token or key,
 * because the sender only has the channel secret and the HMAC over the raw body is the credential.
 * So it has a router of its own, with its own selection instead of the tenant middleware: it reads
 * the raw body itself (app.ts lists the path in the body parser's passThrough), selects the
 * Company from X-Company or ?company_id, opens its runtime with `via: 'webhook'`, and the Company's
 * delivery route verifies the signature. An unknown Company answers exactly like an
 * unknown channel or a bad signature (401), so nobody can probe which Companies exist.
 */
export function inboundWebhookRoutes(deps: Deps): Router {
  const router = new Router();
  const limiter = createRateLimiter(deps.stores.limits, deps.clock, 'webhook_address', WEBHOOK_RATE);
  router.use(async (ctx, next) => {
    const wait = await limiter.hit(ctx.ip);
    if (wait !== null) throw tooManyRequests(wait, 'Too many webhook deliveries from this address. Try again later.');
    ctx.request.rawBody = await readRaw(ctx, MAX_WEBHOOK_BODY);
    let selector: ReturnType<typeof readCompanySelector>;
    try {
      selector = readCompanySelector(ctx);
    } catch {
      throw await refuseDelivery(ctx, deps.clock.now());
    }
    const company = selector ? await deps.stores.companies.findById(selector.id) : undefined;
    const owner = company ? await deps.stores.users.findById(company.owner_id) : undefined;
    if (!company || !owner) throw await refuseDelivery(ctx, deps.clock.now());
    const tenant: TenantCaller = {
      user: owner,
      company: { id: company.id, name: company.name, owner_id: company.owner_id },
      via: 'webhook',
    };
    enterCompany(ctx, tenant, await deps.runtimes.open(tenant.company));
    await next();
  });
  deliveryRoute(router);
  return router;
}
