import type { Context } from 'koa';
import { ErrorCode } from '../../../shared/errors.js';
import { SIGNATURE_HEADER, signatureFailureMessages } from '../../../shared/webhook-signature.js';
import { DomainError, type Refusal } from '../../domain-error.js';
import type { Sealer } from '../../store/sealer.js';
import { acceptDelivery, type DeliveryOutcome } from './accept-delivery.js';
import type { DeliveryDedup } from './delivery-dedup.js';

/**
 * The answer to a delivery for a Company that does not exist (or names none): made by the same
 * check a runtime runs against an unknown channel, with no secret to match, so its status, body
 * and work are those of a bad signature and nobody can probe which Companies exist.
 */
export async function refuseDelivery(ctx: Pick<Context, 'get' | 'request'>, nowMs: number): Promise<DomainError> {
  const outcome = await acceptDelivery(
    {
      channel: '-',
      companyId: '-',
      record: undefined,
      signature: ctx.get(SIGNATURE_HEADER) || undefined,
      deliveryId: undefined,
      contentType: undefined,
      rawBody: ctx.request.rawBody ?? Buffer.alloc(0),
      nowMs,
    },
    { sealer: noSealer, dedup: noDedup },
  );
  return outcome.ok
    ? new DomainError('unauthenticated', ErrorCode.signatureInvalid, signatureFailureMessages.mismatch)
    : new DomainError(REFUSAL_OF[outcome.status], outcome.code, outcome.message);
}

/** The refusal behind each status a delivery check answers with, so this answer matches the runtime's. */
const REFUSAL_OF: Record<Extract<DeliveryOutcome, { ok: false }>['status'], Refusal> = {
  400: 'invalid',
  401: 'unauthenticated',
  413: 'too_large',
};

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
