import type { RouteRegistrar } from '../../http/route-registrar.js';
import type { Context } from 'koa';
import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import { isoAt } from '../../clock.js';
import { ApiError, conflict, notFound } from '../../http/api-error.js';
import { validate } from '../../http/validate.js';
import { tenantOf } from '../seam.js';
import { StoreConflict } from '../../store/types.js';
import type { ChannelDesk } from '../opened.js';
import { deliveryTargetOf, openedOf } from './opened-of.js';
import { acceptDelivery } from '../channels/accept-delivery.js';
import {
  channelNameProblem,
  createChannel,
  describeChannel,
  rotateChannelSecret,
} from '../channels/channel-secrets.js';
import { messageFromBody, routeInboundMessage } from '../channels/inbound-router.js';
import { DELIVERY_HEADER, SIGNATURE_HEADER, V1_SUNSET } from '../../../shared/webhook-signature.js';

const createBody = z.object({ name: z.string().trim().min(1).max(63) }).strict();
const rotateBody = z
  .object({
    grace_ms: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600_000)
      .optional(),
  })
  .strict();

/**
 * A Company's webhook channels: create (the secret is shown once), list (never a secret), rotate,
 * delete — behind the tenant middleware like every runtime route. The inbound delivery is
 * `deliveryRoute`, on a router of its own (its caller has no token: the signature is the
 * credential).
 */
export function channelRoutes(router: RouteRegistrar): void {
  const existing = async ({ channels }: ChannelDesk, name: string) => {
    const record = await channels.get(name);
    if (!record) throw notFound(`No channel '${name}' in this Company.`, ErrorCode.channelNotFound);
    return record;
  };

  router.post('/api/channels', async (ctx) => {
    const { name } = validate(createBody, ctx.request.body);
    const { channels, random, sealer, clock } = openedOf(ctx).channels;
    const problem = channelNameProblem(name);
    if (problem) throw new ApiError(400, ErrorCode.validationFailed, `name: ${problem}`);
    const made = createChannel(name, { random, sealer, nowIso: isoAt(clock.now()) });
    try {
      await channels.create(made.record);
    } catch (err) {
      if (err instanceof StoreConflict)
        throw conflict(`A channel named '${name}' already exists.`, ErrorCode.channelExists);
      throw err;
    }
    ctx.status = 201;
    ctx.body = {
      ok: true,
      channel: describeChannel(made.record),
      secret: made.secret,
      endpoint: `/api/webhooks/${name}`,
    };
  });
  router.get(
    '/api/channels',
    async (ctx) => void (ctx.body = { channels: (await openedOf(ctx).channels.channels.list()).map(describeChannel) }),
  );
  router.post('/api/channels/:name/rotate', async (ctx) => {
    const body = validate(rotateBody, ctx.request.body ?? {});
    const desk = openedOf(ctx).channels;
    const { channels, random, sealer, clock } = desk;
    const rotated = rotateChannelSecret(await existing(desk, ctx.params.name!), {
      random,
      sealer,
      nowMs: clock.now(),
      graceMs: body.grace_ms,
    });
    if (!(await channels.replace(rotated.record))) await existing(desk, ctx.params.name!); // deleted meanwhile: 404
    ctx.body = { ok: true, channel: describeChannel(rotated.record), secret: rotated.secret };
  });
  router.delete('/api/channels/:name', async (ctx) => {
    const desk = openedOf(ctx).channels;
    if (!(await desk.channels.delete(ctx.params.name!))) await existing(desk, ctx.params.name!);
    ctx.body = { ok: true, name: ctx.params.name, deleted: true };
  });
}

/** `POST /api/webhooks/{channel}`: registered by the inbound webhook router (companies/inbound-webhook-route.ts), behind its own selection. */
export function deliveryRoute(router: RouteRegistrar): void {
  router.post('/api/webhooks/:channel', (ctx) => receiveDelivery(ctx, deliveryTargetOf(ctx).channels));
}

/** Verifies and emits one delivery, then hands its message to the sessions bridged to the channel. */
async function receiveDelivery(ctx: Context, deps: ChannelDesk): Promise<void> {
  const tenant = tenantOf(ctx);
  const channel = String(ctx.params.channel);
  const outcome = await acceptDelivery(
    {
      channel,
      companyId: tenant.company.id,
      record: channelNameProblem(channel) ? undefined : await deps.channels.get(channel),
      signature: ctx.get(SIGNATURE_HEADER) || undefined,
      deliveryId: ctx.get(DELIVERY_HEADER) || undefined,
      contentType: ctx.get('Content-Type') || undefined,
      rawBody: ctx.request.rawBody ?? Buffer.alloc(0),
      nowMs: deps.clock.now(),
    },
    deps,
  );
  if (!outcome.ok) throw new ApiError(outcome.status, outcome.code, outcome.message);
  // RFC 8594: tells a v1 sender (and its logs) when its signatures stop being accepted.
  if (outcome.scheme === 'v1') ctx.set('Sunset', new Date(V1_SUNSET).toUTCString());
  if (outcome.duplicate) {
    ctx.body = { ok: true, delivery_id: outcome.delivery_id, duplicate: true };
    return;
  }
  const emitted = await deps.services.events.emit(outcome.emit);
  const message = messageFromBody(channel, (outcome.emit.content as { body: unknown }).body);
  const routed = message ? await routeInboundMessage(deps.services, message, emitted.event.id) : [];
  ctx.body = {
    ok: true,
    delivery_id: outcome.delivery_id,
    duplicate: false,
    event: emitted.event,
    fired: emitted.fired,
    routed,
  };
}
