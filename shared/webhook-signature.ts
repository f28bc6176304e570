import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of an inbound webhook delivery, in the scheme Stripe made familiar:
 *
 *   X-Svc-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * Signing the timestamp with the body means an old delivery cannot be replayed with a fresh `t`;
 * the tolerance (5 minutes either way) bounds how long a captured delivery stays usable, and the
 * delivery id dedup (delivery-dedup.ts) covers replays inside that window. Several `v1=` entries
 * may be sent (one per secret while a channel's secret is being rotated); any match is enough.
 */
export const SIGNATURE_HEADER = 'x-svc-signature';
export const DELIVERY_HEADER = 'x-svc-delivery';
export const SIGNATURE_TOLERANCE_S = 300;

export type SignatureCheck =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'missing' | 'malformed' | 'too_old' | 'in_future' | 'mismatch' };

/** The hex HMAC of one delivery. `rawBody` must be the exact bytes sent, not re-serialised JSON. */
export function computeSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The header value for a delivery (the CLI's `svc webhook send` and the tests use it). */
export function signDelivery(secret: string, rawBody: string | Buffer, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${computeSignature(secret, t, rawBody)}`;
}

/** Checks a signature header against the channel's secrets (the current one, and the previous one during a rotation). */
export function verifySignature(input: {
  header: string | undefined;
  secrets: string[];
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
  for (const secret of input.secrets) {
    const expected = Buffer.from(computeSignature(secret, parsed.t, input.rawBody), 'hex');
    // Constant-time: how long the comparison takes must not reveal how many bytes of a forged signature were right.
    if (parsed.v1.some((sig) => sig.length === expected.length && timingSafeEqual(sig, expected)))
      return { ok: true, timestamp: parsed.t };
  }
  return { ok: false, reason: 'mismatch' };
}

function parseHeader(header: string): { t: number; v1: Buffer[] } | null {
  if (header.length > 2048) return null;
  let t: number | null = null;
  const v1: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || t !== null) return null;
      t = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return null;
      v1.push(Buffer.from(value, 'hex'));
    }
    // Unknown schemes (v0, v2…) are ignored, so the scheme can grow without breaking old senders.
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

/** What each failure tells the sender (the status is 400 for malformed input, 401 otherwise). */
export const signatureFailureMessages: Record<Exclude<SignatureCheck, { ok: true }>['reason'], string> = {
  missing: 'X-Svc-Signature header required',
  malformed: "X-Svc-Signature must look like 't=<unix seconds>,v1=<hex hmac-sha256>'",
  too_old: 'signature timestamp is more than 5 minutes old (replayed or delayed delivery)',
  in_future: 'signature timestamp is more than 5 minutes in the future (check the sender clock)',
  mismatch: 'signature does not match the body and the channel secret',
};
