import { currentCompanyKey } from './company.js';
import type { CliContext } from './context.js';
import { accounts } from './credentials/store.js';

/** Where one credential of a profile comes from; an `SVC_*` variable always wins over a stored one. */
export type Source = 'keychain' | 'file' | 'SVC_TOKEN' | 'SVC_ACCOUNT_KEY' | 'SVC_SECRET_KEY' | null;

export interface CredentialSources {
  token: { value: string | null; source: Source };
  account_key: Source;
  secret_key: Source;
}

/** The profile's token, account key and (current Company's) secret key: their origin, and the token itself. */
export async function findCredentialSources(ctx: CliContext): Promise<CredentialSources> {
  const store = ctx.credentials();
  const where = async (account: string): Promise<Source> =>
    store.where ? store.where(account) : (await store.get(account)) !== null ? store.kind() : null;
  const company = ctx.config().get<{ id: string }>(currentCompanyKey(ctx.scope));
  const tokenSource: Source = ctx.env.SVC_TOKEN ? 'SVC_TOKEN' : await where(accounts.token(ctx.scope));
  return {
    token: {
      value: ctx.env.SVC_TOKEN ?? (tokenSource ? await store.get(accounts.token(ctx.scope)) : null),
      source: tokenSource,
    },
    account_key: ctx.env.SVC_ACCOUNT_KEY ? 'SVC_ACCOUNT_KEY' : await where(accounts.accountKey(ctx.scope)),
    secret_key: ctx.env.SVC_SECRET_KEY
      ? 'SVC_SECRET_KEY'
      : company
        ? await where(accounts.secretKey(ctx.scope, company.id))
        : null,
  };
}

export const describeSource = (source: Source): string =>
  source === null
    ? 'none'
    : source === 'keychain'
      ? 'OS keychain'
      : source === 'file'
        ? 'credentials file (0600)'
        : `$${source} (environment, wins over what is stored)`;
