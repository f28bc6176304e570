import type { Context } from 'koa';
import { isoAt } from '../../clock.js';
import type { Deps } from '../../deps.js';
import type { UserRecord } from '../../store/types.js';
import { createChallenge } from '../one-time.js';
import { issueSession, type AuthMethod } from '../session-issuer.js';
import { looksLikeJwt, signToken, verifyToken } from '../tokens.js';
import type { FactorLimits } from '../factor-limits.js';
import { spendSecondFactor } from './second-factor.js';

/**
 * The TOTP-pending half of a login (spec §3.3). The password was right, so the user gets a
 * `partial` token: its own token type (refused by every other route), 5 minutes, 5 tries, single
 * use. Its `sid` names a challenge row; tries and use are counted there, atomically.
 */
export async function startPartialLogin(deps: Deps, user: UserRecord, firstFactor: AuthMethod[]): Promise<string> {
  const { partialTtlMs } = deps.config.auth.factors;
  const { record } = await createChallenge(deps, {
    kind: 'partial_login',
    subject: user.id,
    ttlMs: partialTtlMs,
    data: { method: firstFactor },
  });
  return signToken(
    deps.secrets.jwtSecret,
    { user_id: user.id, email: user.email, sid: record.id, typ: 'partial' },
    deps.clock.now(),
    partialTtlMs,
  );
}

export type PartialLoginResult =
  | { ok: true; token: string }
  | { ok: false; reason: 'bad_token' | 'wrong_code'; userId?: string };

/** Checks the partial token, counts a try, checks the code; the one request that ends the row gets the session. */
export async function finishPartialLogin(
  deps: Deps,
  ctx: Pick<Context, 'get' | 'ip'>,
  partialToken: string,
  code: string,
  limits: FactorLimits,
): Promise<PartialLoginResult> {
  const claims = looksLikeJwt(partialToken)
    ? verifyToken(deps.secrets.jwtSecret, partialToken, deps.clock.now())
    : null;
  if (claims?.typ !== 'partial') return { ok: false, reason: 'bad_token' };
  // The per-account ceiling (10 failures → 15 min) spans partial tokens: a new password login does not reset it.
  const accountKey = `totp:${claims.user_id}`;
  await limits.guardAccount(accountKey);
  const { partialMaxTries } = deps.config.auth.factors;
  const row = await deps.stores.challenges.countTry(
    claims.sid,
    'partial_login',
    isoAt(deps.clock.now()),
    partialMaxTries,
  );
  if (!row || row.subject !== claims.user_id) return { ok: false, reason: 'bad_token' };

  // One attempt under the ceiling, across partial tokens: a burst over many of them gets no more
  // tries than the ceiling allows, and a right code clears the count.
  const method = await limits.attempt(accountKey, () => spendSecondFactor(deps, claims.user_id, code), Boolean);
  if (!method) return { ok: false, reason: 'wrong_code', userId: claims.user_id };
  // Two different valid codes (steps t and t+1) could both pass the step check; only one request ends the row.
  if (!(await deps.stores.challenges.end(row.id, isoAt(deps.clock.now())))) return { ok: false, reason: 'bad_token' };

  const user = await deps.stores.users.findById(claims.user_id);
  if (!user) return { ok: false, reason: 'bad_token' };
  const first = Array.isArray(row.data?.method) ? (row.data.method as AuthMethod[]) : ['pwd' as const];
  const { token } = await issueSession(deps, { user, kind: 'full', method: [...first, method], ctx });
  return { ok: true, token };
}
