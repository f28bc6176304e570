import type { Random } from '../../random.js';
import type { Sealer } from '../../store/sealer.js';
import type { ChannelRecord } from '../../store/runtime-types.js';

export { channelNameProblem } from '../../../shared/channel-name.js';
export type { ChannelRecord } from '../../store/runtime-types.js';

/**
 * Per-channel webhook secrets. Unlike API keys they cannot be stored as a hash: verifying an HMAC
 * needs the secret itself. So they are sealed at rest (AES-256-GCM, store/sealer.ts) and opened
 * only to verify a delivery; SECURITY.md allows no plaintext secret under the data folder. The
 * secret is shown once, when the channel is created or its secret rotated. After a rotation the
 * previous secret keeps working for a grace period so senders can switch without losing deliveries.
 */
const SECRET_PREFIX = 'whsec_';
const ROTATION_GRACE_MS = 24 * 3600_000;

/** 32 random bytes, base64url: `whsec_` + 43 characters. */
function generateChannelSecret(random: Random): string {
  return SECRET_PREFIX + random.bytes(32).toString('base64url');
}

/** A new channel and its secret (the secret is returned to the caller once and only sealed is kept). */
export function createChannel(
  name: string,
  deps: { random: Random; sealer: Sealer; nowIso: string },
): { record: ChannelRecord; secret: string } {
  const secret = generateChannelSecret(deps.random);
  return {
    record: {
      name,
      secret_sealed: deps.sealer.seal(secret),
      previous_sealed: null,
      previous_until: null,
      created_at: deps.nowIso,
      rotated_at: null,
    },
    secret,
  };
}

/** A fresh secret; the current one stays valid for `graceMs` (0 revokes it at once, e.g. after a leak). */
export function rotateChannelSecret(
  record: ChannelRecord,
  deps: { random: Random; sealer: Sealer; nowMs: number; graceMs?: number },
): { record: ChannelRecord; secret: string } {
  const secret = generateChannelSecret(deps.random);
  const grace = deps.graceMs ?? ROTATION_GRACE_MS;
  return {
    record: {
      ...record,
      secret_sealed: deps.sealer.seal(secret),
      previous_sealed: grace > 0 ? record.secret_sealed : null,
      previous_until: grace > 0 ? new Date(deps.nowMs + grace).toISOString() : null,
      rotated_at: new Date(deps.nowMs).toISOString(),
    },
    secret,
  };
}

/** The secrets a delivery may be signed with right now: the current one, and the previous one in its grace period. */
export function secretsOf(record: ChannelRecord, sealer: Sealer, nowMs: number): string[] {
  const secrets = [sealer.open(record.secret_sealed)];
  if (record.previous_sealed && record.previous_until && Date.parse(record.previous_until) > nowMs)
    secrets.push(sealer.open(record.previous_sealed));
  return secrets;
}

/** What listing a channel shows: never the secret. */
export function describeChannel(record: ChannelRecord): {
  name: string;
  created_at: string;
  rotated_at: string | null;
  previous_secret_valid_until: string | null;
} {
  return {
    name: record.name,
    created_at: record.created_at,
    rotated_at: record.rotated_at,
    previous_secret_valid_until: record.previous_until,
  };
}
