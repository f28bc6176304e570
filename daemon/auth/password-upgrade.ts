import type { Deps } from '../deps.js';
import type { UserRecord } from '../store/types.js';
import { hashPassword, isWeakerHash } from './passwords.js';

/**
 * After a login proved `password`, replaces a stored hash weaker than the configured cost (made
 * under a test setting, or before the cost was raised) with one at that cost: the parameters are
 * stored with each hash, so without this an old cheap hash would stay cheap to crack for as long
 * as the account lives. Only the login's own check-and-set writes: a password changed meanwhile is
 * left alone. A failure (the hashing pool full, the store down) keeps the login and is retried at
 * the next one.
 */
export async function upgradeWeakHash(
  deps: Pick<Deps, 'stores' | 'config' | 'log'>,
  user: UserRecord,
  password: string,
): Promise<void> {
  const stored = user.password_hash;
  const params = deps.config.auth.passwordHash;
  if (!stored || !isWeakerHash(stored, params)) return;
  try {
    const upgraded = await hashPassword(password, params);
    let replaced = false;
    await deps.stores.users.update(user.id, (u) => {
      if (u.password_hash !== stored) return;
      u.password_hash = upgraded;
      replaced = true;
    });
    if (replaced) deps.log.info('password hash upgraded to the configured cost', { user_id: user.id });
  } catch (err) {
    deps.log.warn('password hash not upgraded; the next login tries again', {
      user_id: user.id,
      err: String((err as Error)?.message ?? err),
    });
  }
}
