import { describeKeyProblem, keyProblem, type KeyKind } from '../shared/keys.js';
import type { CliContext } from './context.js';
import { accounts } from './credentials/store.js';
import { UsageError } from './errors.js';

/** Wire shapes of the keys routes: one definition, in shared/schemas/keys.ts. */
export type { SecretKeyRow, KeyListResponse as KeyList } from '../shared/schemas/keys.js';

/** Refuses a malformed key before it is sent anywhere (same format check as the daemon, shared/keys.ts). */
export function assertWellFormed(kind: KeyKind, key: string, source: string): string {
  const problem = keyProblem(kind, key.trim());
  if (problem) throw new UsageError(`${source}: ${describeKeyProblem(kind, problem)}`);
  return key.trim();
}

/** The current secret key of a Company (see stored-keys.ts for the others). */
export const storedSecretKey = (ctx: CliContext, companyId: string) =>
  ctx.credentials().get(accounts.secretKey(ctx.scope, companyId));
export const storeAccountKey = (ctx: CliContext, key: string) =>
  ctx.credentials().set(accounts.accountKey(ctx.scope), key);
export const storedAccountKey = (ctx: CliContext) => ctx.credentials().get(accounts.accountKey(ctx.scope));

/** Where a stored secret went, for the one line that tells the user. */
export const storeName = (ctx: CliContext) =>
  ctx.credentials().kind() === 'keychain' ? 'the OS keychain' : 'the 0600 credentials file';
