import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Logger } from '../logger.js';
import { createMemorySpace } from './engine/memory-space.js';
import type { Space } from './engine/types.js';
import { openJournalSpace } from './journal/index.js';
import { createCodeStore } from './accounts/codes.js';
import { createChallengeStore, createPasskeyStore, createWalletStore } from './accounts/factors.js';
import { createLimitStore } from './accounts/limits.js';
import { createOAuthStore } from './accounts/oauth.js';
import { createOutbox } from './accounts/outbox.js';
import { createSessionStore } from './accounts/sessions.js';
import { defineAccountTables } from './accounts/tables.js';
import { createCompanyStore, createKeyStore } from './accounts/tenancy.js';
import { createMemberStore } from './accounts/members.js';
import { createInviteStore, createUserStore } from './accounts/users.js';
import { findRetiredLayout, refuseRetiredLayout } from './old-layouts.js';
import type { Sealer } from './sealer.js';
import type { AuditStore, Stores } from './types.js';
import { createMemoryAuditStore } from './audit/audit-log.js';
import { openFileAuditStore } from './audit/file-audit.js';

export interface StoreDeps {
  clock: Clock;
  ids: IdGenerator;
  sealer: Sealer;
  outboxMax: number;
}

/**
 * The account stores of the data folder: one JSON Lines journal, `accounts/`. A folder that holds
 * a retired layout's files is refused before anything is opened (old-layouts.ts).
 */
export async function openFileStores(
  dataDir: string,
  deps: StoreDeps,
  log?: Pick<Logger, 'info' | 'warn'>,
): Promise<Stores> {
  refuseRetiredLayout(findRetiredLayout(dataDir));
  const space = await openJournalSpace(dataDir, { name: 'accounts' });
  for (const problem of space.recovery) log?.warn('accounts journal recovered at open', { problem });
  const audit = await openFileAuditStore(dataDir);
  for (const problem of audit.recovery) log?.warn('audit trail recovered at open', { problem });
  return buildStores(space, deps, audit);
}

/** The in-memory stores: the same domain code over the memory backend of the record engine. */
export async function createMemoryStores(deps: StoreDeps): Promise<Stores> {
  return buildStores(createMemorySpace(), deps, createMemoryAuditStore());
}

function buildStores(space: Space, deps: StoreDeps, audit: AuditStore): Stores {
  const tables = defineAccountTables(space);
  const stores: Stores = {
    users: createUserStore(tables),
    invites: createInviteStore(tables),
    sessions: createSessionStore(tables),
    codes: createCodeStore(tables),
    companies: createCompanyStore(tables),
    members: createMemberStore(tables),
    keys: createKeyStore(tables),
    challenges: createChallengeStore(tables),
    passkeys: createPasskeyStore(tables),
    wallets: createWalletStore(tables),
    limits: createLimitStore(tables),
    oauth: createOAuthStore(space),
    outbox: createOutbox(tables, { clock: deps.clock, ids: deps.ids, sealer: deps.sealer, max: deps.outboxMax }),
    audit,
    flush: async () => {
      await Promise.all([space.flush(), audit.flush()]);
    },
    close: async () => {
      await audit.close();
      await space.close();
    },
  };
  return stores;
}
