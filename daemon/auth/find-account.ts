import { emailLookupKeys } from '../../shared/email.js';
import type { UserRecord, UserStore } from '../store/types.js';

/**
 * The account of an address as typed: looked up under its canonical form, then under the form
 * earlier releases stored, which only trimmed and lower-cased it (so an account made as
 * `ada@example.com.` still logs in).
 * Awaits each lookup, so it works whether the store answers now or later.
 */
export async function findUserByEmail(
  users: Pick<UserStore, 'findByEmail'>,
  typed: string,
): Promise<UserRecord | undefined> {
  for (const key of emailLookupKeys(typed)) {
    const user = await users.findByEmail(key);
    if (user) return user;
  }
  return undefined;
}
