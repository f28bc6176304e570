import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { invalid } from '../domain-error.js';
import { ErrorCode } from '../../shared/errors.js';
import type { Tier } from '../../shared/wire.js';
import { normalizeEmail } from '../auth/email-codes.js';
import { hashPassword, passwordProblem, verifyPassword } from '../auth/passwords.js';
import { issueSession } from '../auth/session-issuer.js';
import { totpOf, totpSealer, type TotpState } from '../auth/totp/totp-codes.js';
import type { UserRecord } from '../store/types.js';

export interface SeedUserInput {
  email: string;
  password: string;
  tier?: Tier;
  totp_secret?: string;
}

/** How long the session `svc dev seed` acts through lives: long enough for one seeding, no longer. */
const SEED_SESSION_MS = 10 * 60_000;

/**
 * A verified user with this password (and tier, and TOTP secret), as `svc dev seed` declares it:
 * made when the e-mail is new, else brought to the declared state, changing nothing that already
 * matches — so seeding twice leaves one user and no second write. Operator-only: it skips the
 * invite and the e-mailed code, which is exactly what a local fixture is for and nothing else is.
 */
export async function ensureSeedUser(
  deps: Pick<Deps, 'clock' | 'ids' | 'stores' | 'config' | 'secrets'>,
  input: SeedUserInput,
): Promise<{ user: UserRecord; created: boolean }> {
  const problem = passwordProblem(input.password);
  if (problem) throw invalid(problem, ErrorCode.passwordInvalid);
  const email = normalizeEmail(input.email);
  const now = isoAt(deps.clock.now());
  let user = await deps.stores.users.findByEmail(email);
  let created = false;
  if (!user) {
    user = await deps.stores.users.create({
      id: deps.ids('usr'),
      email,
      tier: input.tier ?? deps.config.defaultTier,
      created_at: now,
      email_verified_at: now,
      password_hash: await hashPassword(input.password, deps.config.auth.passwordHash),
      password_changed_at: now,
    });
    created = true;
  } else {
    const params = deps.config.auth.passwordHash;
    if (!user.password_hash || !(await verifyPassword(input.password, user.password_hash, params.maxmem)))
      await deps.stores.users.setPassword(user.id, await hashPassword(input.password, params), now, null);
    if (!user.email_verified_at) await deps.stores.users.update(user.id, (u) => void (u.email_verified_at = now));
    if (input.tier && user.tier !== input.tier) await deps.stores.users.setTier(user.id, input.tier);
  }
  if (input.totp_secret) await ensureTotp(deps, user, input.totp_secret.toUpperCase(), now);
  return { user: (await deps.stores.users.findById(user.id)) ?? user, created };
}

async function ensureTotp(deps: Pick<Deps, 'stores' | 'secrets'>, user: UserRecord, secret: string, now: string) {
  const sealer = totpSealer(deps.secrets.codeKey);
  const current = totpOf(user);
  if (current?.enabled_at && sealer.open(current.secret_sealed) === secret) return;
  const state: TotpState = {
    secret_sealed: sealer.seal(secret),
    enabled_at: now,
    pending_until: null,
    last_step: null,
    recovery: [],
  };
  await deps.stores.users.update(user.id, (u) => void (u.totp = state));
}

/** A short session token for a seeded user, so the CLI can make the user's Companies through the public API. */
export async function issueSeedSession(
  deps: Pick<Deps, 'clock' | 'ids' | 'stores' | 'secrets' | 'config'>,
  user: UserRecord,
): Promise<string> {
  const now = deps.clock.now();
  const { token } = await issueSession(deps, {
    user,
    kind: 'full',
    method: ['seed'],
    from: { authAt: now, expiresAt: now + SEED_SESSION_MS },
  });
  return token;
}
