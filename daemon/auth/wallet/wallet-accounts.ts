import { isoAt } from '../../clock.js';
import type { Deps } from '../../deps.js';
import type { UserRecord } from '../../store/types.js';
import { hashInviteCode } from '../invite-codes.js';

export type WalletSignup = { ok: true; user: UserRecord } | { ok: false; reason: 'taken' | 'invite' };

/**
 * A wallet-only account: no e-mail (`email: null`, and so `email: null` in its JWT) and no
 * password until the user adds them. The invite is consumed first, then the address is linked
 * atomically, so two racing signups for one address make one account.
 */
export async function signUpWallet(deps: Deps, address: string, inviteCode: string): Promise<WalletSignup> {
  if (await deps.stores.wallets.findUserId(address)) return { ok: false, reason: 'taken' };
  const now = isoAt(deps.clock.now());
  const id = deps.ids('usr');
  if (!(await deps.stores.invites.consume(hashInviteCode(inviteCode), now, id))) return { ok: false, reason: 'invite' };
  if (!(await deps.stores.wallets.link(address, id, now))) return { ok: false, reason: 'taken' };
  const user = await deps.stores.users.create({
    id,
    email: null,
    tier: deps.config.defaultTier,
    created_at: now,
    email_verified_at: null,
    password_hash: null,
    wallet_address: address,
  });
  return { ok: true, user };
}

export async function findWalletUser(deps: Deps, address: string): Promise<UserRecord | undefined> {
  const id = await deps.stores.wallets.findUserId(address);
  return id ? await deps.stores.users.findById(id) : undefined;
}
