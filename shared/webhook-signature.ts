import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of an inbound webhook delivery, in the scheme Stripe made familiar:
 *
 *   X-Svc-Signature: t=<unix seconds>,v2=<hex HMAC-SHA256(secret, "v2.<t>.<delivery id>\n<raw body>")>
 *
 * Signing the timestamp means an old delivery cannot be replayed with a fresh `t`; the tolerance
 * (5 minutes either way) bounds how long a captured delivery stays usable, and the delivery id
 * dedup (delivery-dedup.ts) refuses a replay inside that window. v2 signs the delivery id too, so a
 * replay under a fresh id breaks the signature instead of passing as a new delivery.
 *
 * The signed string is unambiguous: `t` is digits and the id has no newline, so no two (t, id,
 * body) give the same string; and it starts with `v2.` where a v1 string starts with a digit, so a
 * v2 signature can never pass as a v1 signature of some other body.
 *
 * v1 (`v1=` over "<t>.<raw body>", the delivery id unsigned) is still accepted until V1_SUNSET for
 * senders written against it; the daemon dedups those on the signed bytes as well (accept-delivery.ts).
 * Several entries of a scheme may be sent (one per secret while a channel's secret is being
 * rotated); any match is enough. When a header carries v2, only v2 counts: a v1 entry next to it
 * cannot stand in for a v2 entry that does not match.
 */
export const SIGNATURE_HEADER = 'x-svc-signature';
export const DELIVERY_HEADER = 'x-svc-delivery';
const SIGNATURE_TOLERANCE_S = 300;
/** From this instant on a v1-only signature is refused (the deprecation window documented in docs/emitters.md). */
export const V1_SUNSET = '2027-06-01T00:00:00Z';

export type SignatureScheme = 'v1' | 'v2';

export type SignatureCheck =
  | {
      ok: true;
      timestamp: number;
      scheme: SignatureScheme;
      /** A v1 entry came along with the v2 one (a sender signing both during the window). */
      alsoV1: boolean;
    }
  | { ok: false; reason: 'missing' | 'malformed' | 'too_old' | 'in_future' | 'mismatch' | 'v1_retired' };

/** The hex v2 HMAC of one delivery. `rawBody` must be the exact bytes sent, not re-serialised JSON. */
export function computeSignature(
  secret: string,
  timestamp: number,
  deliveryId: string,
  rawBody: string | Buffer,
): string {
  return createHmac('sha256', secret).update(`v2.${timestamp}.${deliveryId}\n`).update(rawBody).digest('hex');
}

/** The hex v1 HMAC (the deprecated scheme: the delivery id is not signed). */
export function computeSignatureV1(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The header value for a delivery (the CLI's `svc webhook send` and the tests use it). */
export function signDelivery(input: {
  secret: string;
  deliveryId: string;
  rawBody: string | Buffer;
  nowMs: number;
}): string {
  const t = Math.floor(input.nowMs / 1000);
  return `t=${t},v2=${computeSignature(input.secret, t, input.deliveryId, input.rawBody)}`;
}

/** A v1 header, as senders written before v2 make it (kept for the tests of the deprecation window). */
export function signDeliveryV1(secret: string, rawBody: string | Buffer, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${computeSignatureV1(secret, t, rawBody)}`;
}

/** Checks a signature header against the channel's secrets (the current one, and the previous one during a rotation). */
export function verifySignature(input: {
  header: string | undefined;
  secrets: string[];
  /** The X-Svc-Delivery value as received: v2 signs it. */
  deliveryId: string | undefined;
  rawBody: string | Buffer;
  nowMs: number;
  toleranceS?: number;
}): SignatureCheck {
  if (!input.header) return { ok: false, reason: 'missing' };
  const parsed = parseHeader(input.header);
  if (!parsed) return { ok: false, reason: 'malformed' };
  const tolerance = input.toleranceS ?? SIGNATURE_TOLERANCE_S;
  const now = Math.floor(input.nowMs / 1000);
  if (parsed.t < now - tolerance) return { ok: false, reason: 'too_old' };
  if (parsed.t > now + tolerance) return { ok: false, reason: 'in_future' };
  const scheme: SignatureScheme = parsed.v2.length > 0 ? 'v2' : 'v1';
  if (scheme === 'v1' && input.nowMs >= Date.parse(V1_SUNSET)) return { ok: false, reason: 'v1_retired' };
  const candidates = scheme === 'v2' ? parsed.v2 : parsed.v1;
  for (const secret of input.secrets) {
    const hex =
      scheme === 'v2'
        ? computeSignature(secret, parsed.t, input.deliveryId ?? '', input.rawBody)
        : computeSignatureV1(secret, parsed.t, input.rawBody);
    const expected = Buffer.from(hex, 'hex');
    // Constant-time: how long the comparison takes must not reveal how many bytes of a forged signature were right.
    if (candidates.some((sig) => sig.length === expected.length && timingSafeEqual(sig, expected)))
      return { ok: true, timestamp: parsed.t, scheme, alsoV1: scheme === 'v2' && parsed.v1.length > 0 };
  }
  return { ok: false, reason: 'mismatch' };
}

function parseHeader(header: string): { t: number; v1: Buffer[]; v2: Buffer[] } | null {
  if (header.length > 2048) return null;
  let t: number | null = null;
  const v1: Buffer[] = [];
  const v2: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || t !== null) return null;
      t = Number(value);
    } else if (key === 'v1' || key === 'v2') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return null;
      (key === 'v1' ? v1 : v2).push(Buffer.from(value, 'hex'));
    }
    // Unknown schemes (v0, v3…) are ignored, so the scheme can grow without breaking old senders.
  }
  return t === null || v1.length + v2.length === 0 ? null : { t, v1, v2 };
}

/** What each failure tells the sender (the status is 400 for malformed input, 401 otherwise). */
export const signatureFailureMessages: Record<Exclude<SignatureCheck, { ok: true }>['reason'], string> = {
  missing: 'X-Svc-Signature header required',
  malformed: "X-Svc-Signature must look like 't=<unix seconds>,v2=<hex hmac-sha256>'",
  too_old: 'signature timestamp is more than 5 minutes old (replayed or delayed delivery)',
  in_future: 'signature timestamp is more than 5 minutes in the future (check the sender clock)',
  mismatch: 'signature does not match the body and the channel secret',
  v1_retired: `v1 signatures are not accepted since ${V1_SUNSET}: sign "v2.<t>.<delivery id>\\n<body>" and send it as v2=`,
};
