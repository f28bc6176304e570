import { join } from 'node:path';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import { accountsDefaults, createInviteStore, createUserStore, type AccountsData } from './accounts.js';
import { Doc } from './doc.js';
import { createOutbox, outboxDefaults, type OutboxData } from './outbox.js';
import type { Sealer } from './sealer.js';
import { createSessionStore } from './sessions.js';
import { createCodeStore } from './codes.js';
import type { Stores } from './types.js';
import { companiesDefaults, createCompanyStore, type CompaniesData } from './companies.js';
import { createKeyStore, keysDefaults, type KeysData } from './keys.js';
import { createChallengeStore, createPasskeyStore, createWalletStore, factorsDefaults, type FactorsData } from './factors.js';

export interface StoreDeps {
  clock: Clock;
  ids: IdGenerator;
  sealer: Sealer;
  outboxMax: number;
}

type Open = <T extends object>(name: string, defaults: T) => Promise<Doc<T>>;

/** The JSON-file stores: one durable lowdb document per room under the data folder. */
export function openFileStores(dataDir: string, deps: StoreDeps): Promise<Stores> {
  return buildStores((name, defaults) => Doc.file(join(dataDir, `${name}.json`), defaults), deps);
}

/** The in-memory stores: the same domain code over lowdb's Memory adapter. */
export function createMemoryStores(deps: StoreDeps): Promise<Stores> {
  return buildStores((_name, defaults) => Doc.memory(defaults), deps);
}

async function buildStores(open: Open, deps: StoreDeps): Promise<Stores> {
  const accounts = await open<AccountsData>('accounts', accountsDefaults());
  const outbox = await open<OutboxData>('outbox', outboxDefaults());
  const companies = await open<CompaniesData>('companies', companiesDefaults());
  const keys = await open<KeysData>('keys', keysDefaults());
  const factors = await open<FactorsData>('factors', factorsDefaults());
  const docs = [
    accounts,
    outbox,
    companies,
    keys,
    factors,
  ];
  return {
    users: createUserStore(accounts),
    invites: createInviteStore(accounts),
    sessions: createSessionStore(accounts),
    codes: createCodeStore(accounts),
    companies: createCompanyStore(companies),
    keys: createKeyStore(keys),
    challenges: createChallengeStore(factors),
    passkeys: createPasskeyStore(factors),
    wallets: createWalletStore(factors),
    outbox: createOutbox(outbox, { clock: deps.clock, ids: deps.ids, sealer: deps.sealer, max: deps.outboxMax }),
    flush: async () => {
      await Promise.all(docs.map((d) => d.flush()));
    },
  };
}
