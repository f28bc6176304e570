import { Router } from '@koa/router';
import { ErrorCode } from '../../shared/errors.js';
import type { Deps } from '../deps.js';
import { ApiError, tooManyRequests } from '../http/api-error.js';
import { readRaw } from '../http/body.js';
import { createRateLimiter } from '../http/rate-limit.js';
import { readCompanySelector } from './tenant-selection.js';
import type { TenantCaller } from '../company/seam.js';
import type { Context } from 'koa';
import { acceptDelivery, MAX_WEBHOOK_BODY } from '../company/channels/accept-delivery.js';
import { SIGNATURE_HEADER, signatureFailureMessages } from '../../shared/webhook-signature.js';
import type { DeliveryDedup } from '../company/channels/delivery-dedup.js';
import type { Sealer } from '../store/sealer.js';

export const WEBHOOK_PATH = /^\/api\/webhooks\/[^/]+\/?$/i;

/** Per client address: generous for a CI system, low enough that guessing secrets goes nowhere. */
export const WEBHOOK_RATE = [{ limit: 120, windowMs: 60_000 }];

/**
 * `POST /api/webhooks/{channel}`: the one runtime route served WITHOUT a user token or key,
 * because the sender only has the channel secret and the HMAC over the raw body is the credential.
 * So it is handled here, before the tenant gateway's authentication, as an explicit exception:
 * it reads the raw body itself (app.ts lists the path in the body parser's passThrough), selects
 * the Company from X-Company or ?company_id, and hands the request to that Company's runtime with
 * `via: 'webhook'`, where the signature is verified. An unknown Company answers exactly like an
 * unknown channel or a bad signature (401), so nobody can probe which Companies exist.
 */
export function inboundWebhookRoutes(deps: Deps): Router {
  const router = new Router();
  const limiter = createRateLimiter(deps.stores.limits, deps.clock, 'webhook_address', WEBHOOK_RATE);
  // Answered exactly as the runtime answers an unknown channel: the same check against no secret.
  const refused = async (ctx: Context): Promise<ApiError> => {
    const outcome = await acceptDelivery(
      {
        channel: '-',
        companyId: '-',
        record: undefined,
        signature: ctx.get(SIGNATURE_HEADER) || undefined,
        deliveryId: undefined,
        contentType: undefined,
        rawBody: ctx.request.rawBody ?? Buffer.alloc(0),
        nowMs: deps.clock.now(),
      },
      { sealer: noSealer, dedup: noDedup },
    );
    return outcome.ok
      ? new ApiError(401, ErrorCode.signatureInvalid, signatureFailureMessages.mismatch)
      : new ApiError(outcome.status, outcome.code, outcome.message);
  };

  router.post('/api/webhooks/:channel', async (ctx) => {
    const wait = await limiter.hit(ctx.ip);
    if (wait !== null) throw tooManyRequests(wait, 'Too many webhook deliveries from this address. Try again later.');
    ctx.request.rawBody = await readRaw(ctx, MAX_WEBHOOK_BODY);
    let selector: ReturnType<typeof readCompanySelector>;
    try {
      selector = readCompanySelector(ctx);
    } catch {
      throw await refused(ctx);
    }
    const company = selector ? await deps.stores.companies.findById(selector.id) : undefined;
    const owner = company ? await deps.stores.users.findById(company.owner_id) : undefined;
    if (!company || !owner) throw await refused(ctx);
    const tenant: TenantCaller = {
      user: owner,
      company: { id: company.id, name: company.name, owner_id: company.owner_id },
      via: 'webhook',
    };
    ctx.state.tenant = tenant;
    await (await deps.runtimes.open(tenant.company)).handle(ctx);
  });
  return router;
}

// Never reached with no channel record (the signature check fails first); here to satisfy the shape.
const noSealer: Sealer = {
  seal: () => {
    throw new Error('no sealer for an unknown Company');
  },
  open: () => {
    throw new Error('no sealer for an unknown Company');
  },
};
const noDedup: DeliveryDedup = {
  firstSeen: async () => false,
  firstSeenV1Bytes: async () => false,
  size: async () => 0,
};
