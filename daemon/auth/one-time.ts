import { createHash } from 'node:crypto';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import type { ChallengeKind, ChallengeRecord } from '../store/factor-types.js';

type ChallengeDeps = Pick<Deps, 'clock' | 'ids' | 'random' | 'stores'>;

/** Only a hash of a one-time secret is stored: a leaked data folder gives no usable nonce or challenge. */
export const hashOneTime = (kind: string, secret: string) =>
  createHash('sha256').update(`${kind}:${secret}`).digest('hex');

export interface NewChallenge {
  kind: ChallengeKind;
  subject: string | null;
  ttlMs: number;
  /** The secret itself; default 32 random bytes, base64url. */
  secret?: string;
  data?: Record<string, unknown>;
}

/** Stores a one-time challenge and returns its secret (the only copy) and row. */
export async function createChallenge(
  deps: ChallengeDeps,
  input: NewChallenge,
): Promise<{ secret: string; record: ChallengeRecord }> {
  const now = deps.clock.now();
  const secret = input.secret ?? deps.random.bytes(32).toString('base64url');
  const record: ChallengeRecord = {
    id: deps.ids('chl'),
    kind: input.kind,
    subject: input.subject,
    secret_hash: hashOneTime(input.kind, secret),
    tries: 0,
    created_at: isoAt(now),
    expires_at: isoAt(now + input.ttlMs),
    ended_at: null,
    ...(input.data ? { data: input.data } : {}),
  };
  await deps.stores.challenges.create(record);
  return { secret, record };
}

/** Consumes the live challenge with this secret (single use, atomic); null when unknown, used or expired. */
export function consumeChallenge(
  deps: Pick<Deps, 'clock' | 'stores'>,
  kind: ChallengeKind,
  secret: string,
): Promise<ChallengeRecord | null> {
  return deps.stores.challenges.consume(kind, hashOneTime(kind, secret), isoAt(deps.clock.now()));
}
