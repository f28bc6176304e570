import { generateInviteCode, hashInviteCode } from '../auth/invite-codes.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';

/** Mints a single-use invite code and stores its hash. */
export async function createInvite(deps: Pick<Deps, 'random' | 'clock' | 'stores'>): Promise<string> {
  const code = generateInviteCode(deps.random);
  await deps.stores.invites.add(hashInviteCode(code), isoAt(deps.clock.now()));
  return code;
}
