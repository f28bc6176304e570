import { decodeUtf8 } from '../../http/utf8.js';
import { ErrorCode } from '../../../shared/errors.js';
import type { EmitInput } from '../company-services.js';
import type { Sealer } from '../../store/sealer.js';
import { secretsOf, type ChannelRecord } from './channel-secrets.js';
import { DELIVERY_ID, type DeliveryDedup } from './delivery-dedup.js';
import { signatureFailureMessages, verifySignature, type SignatureScheme } from '../../../shared/webhook-signature.js';

/**
 * The core of `POST /api/webhooks/{channel}`, free of HTTP: signature, replay window, delivery id
 * dedup, then the `webhook:<channel>` event to emit. An unknown channel answers exactly like a bad
 * signature, so an unauthenticated caller cannot probe which channels exist.
 */
export const MAX_WEBHOOK_BODY = 256 * 1024;

export interface DeliveryRequest {
  channel: string;
  /** Scopes dedup to one Company: two Companies may have channels with the same name. */
  companyId: string;
  record: ChannelRecord | undefined;
  signature: string | undefined;
  deliveryId: string | undefined;
  contentType: string | undefined;
  rawBody: Buffer;
  nowMs: number;
}

export type DeliveryOutcome =
  | { ok: true; duplicate: false; delivery_id: string; scheme: SignatureScheme; emit: EmitInput }
  | { ok: true; duplicate: true; delivery_id: string; scheme: SignatureScheme }
  | { ok: false; status: 400 | 401 | 413; code: string; message: string };

export async function acceptDelivery(
  req: DeliveryRequest,
  deps: { sealer: Sealer; dedup: DeliveryDedup },
): Promise<DeliveryOutcome> {
  if (req.rawBody.length > MAX_WEBHOOK_BODY)
    return {
      ok: false,
      status: 413,
      code: ErrorCode.payloadTooLarge,
      message: `webhook body over ${MAX_WEBHOOK_BODY / 1024} KiB`,
    };
  const secrets = req.record ? secretsOf(req.record, deps.sealer, req.nowMs) : [];
  // With no channel there is no secret: verifying against none fails the same way a forgery does.
  const check = verifySignature({
    header: req.signature,
    secrets,
    deliveryId: req.deliveryId,
    rawBody: req.rawBody,
    nowMs: req.nowMs,
  });
  if (!check.ok) {
    const expired = check.reason === 'too_old' || check.reason === 'in_future';
    return {
      ok: false,
      status: 401,
      code: expired ? ErrorCode.signatureExpired : ErrorCode.signatureInvalid,
      message: signatureFailureMessages[check.reason],
    };
  }
  if (!req.deliveryId || !DELIVERY_ID.test(req.deliveryId)) {
    return {
      ok: false,
      status: 400,
      code: ErrorCode.validationFailed,
      message: 'X-Svc-Delivery header required: 1-128 letters, digits, . _ : -',
    };
  }
  const body = decodeBody(req.rawBody, req.contentType);
  if (!body.ok) return { ok: false, status: 400, code: ErrorCode.invalidJson, message: body.message };
  // Remembered only once accepted: a refused delivery may be fixed and resent under the same id.
  const key = `${req.companyId}/${req.channel}`;
  const v1Bytes = () => deps.dedup.firstSeenV1Bytes(key, check.timestamp, req.rawBody, req.nowMs);
  const duplicate = { ok: true, duplicate: true, delivery_id: req.deliveryId, scheme: check.scheme } as const;
  // v1 does not sign the id, so its signed bytes are the delivery: seen under any id, it is a
  // duplicate. Asked first, so such a replay writes nothing (it cannot crowd real ids out either).
  if (check.scheme === 'v1' && !(await v1Bytes())) return duplicate;
  if (!(await deps.dedup.firstSeen(key, req.deliveryId, req.nowMs))) return duplicate;
  // A sender signing both: its v1 entry, stripped of the v2 one, must not pass as a new v1 delivery.
  if (check.alsoV1) await v1Bytes();
  return {
    ok: true,
    duplicate: false,
    delivery_id: req.deliveryId,
    scheme: check.scheme,
    emit: {
      type: `webhook:${req.channel}`,
      source: 'webhook',
      content: {
        channel: req.channel,
        delivery_id: req.deliveryId,
        signed_at: new Date(check.timestamp * 1000).toISOString(),
        body: body.value,
      },
    },
  };
}

function decodeBody(
  raw: Buffer,
  contentType: string | undefined,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const text = decodeUtf8(raw);
  if (text === null) return { ok: false, message: 'webhook body is not valid UTF-8' };
  if (!contentType || /^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    if (text.trim() === '') return { ok: true, value: null };
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false, message: 'webhook body is not valid JSON (send another content type to deliver plain text)' };
    }
  }
  return { ok: true, value: text };
}
