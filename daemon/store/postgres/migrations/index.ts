import { initialSchema } from './001-initial.js';
import { accountsSchema } from './002-accounts.js';
import { failureSweepSchema } from './003-failure-sweep.js';
import { operatorTokensSchema } from './004-operator-tokens.js';
import { oauthSchema } from './005-oauth.js';
import { auditSchema } from './030-audit.js';
import { teamSchema } from './090-team.js';
import { runtimeSchema } from './100-runtime.js';
import { retriesSchema } from './101-retries.js';
import { eventSourceSchema } from './102-event-source.js';
import { windowsSchema } from './103-windows.js';
import { failureHoldsSchema } from './104-failure-holds.js';
import { keyCompanySchema } from './105-key-company.js';
import { idempotencyClaimsSchema } from './106-idempotency-claims.js';
import { windowSweepSchema } from './107-window-sweep.js';
import { retryLeasesSchema } from './108-retry-leases.js';
import { flowControlSchema } from './109-flow-control.js';
import { settingsSchema } from './110-settings.js';
import { failuresSchema } from './111-failures.js';
import { membersSchema } from './112-members.js';
import { eventOriginSchema } from './113-event-origin.js';

/**
 * The schema's history, oldest first. A released migration is never edited: a change is a new
 * entry with the next version, so every database reaches the same schema by the same steps.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initialSchema },
  { version: 2, name: 'accounts', sql: accountsSchema },
  { version: 3, name: 'failure-sweep', sql: failureSweepSchema },
  { version: 4, name: 'operator-tokens', sql: operatorTokensSchema },
  { version: 5, name: 'oauth', sql: oauthSchema },
  { version: 30, name: 'audit', sql: auditSchema },
  { version: 90, name: 'team', sql: teamSchema },
  // 100 and up: the per-Company stores (numbered apart from the account side's; keep this list sorted).
  { version: 100, name: 'runtime', sql: runtimeSchema },
  { version: 101, name: 'retries', sql: retriesSchema },
  { version: 102, name: 'event-source', sql: eventSourceSchema },
  { version: 103, name: 'windows', sql: windowsSchema },
  { version: 104, name: 'failure-holds', sql: failureHoldsSchema },
  { version: 105, name: 'key-company', sql: keyCompanySchema },
  { version: 106, name: 'idempotency-claims', sql: idempotencyClaimsSchema },
  { version: 107, name: 'window-sweep', sql: windowSweepSchema },
  { version: 108, name: 'retry-leases', sql: retryLeasesSchema },
  { version: 109, name: 'flow-control', sql: flowControlSchema },
  { version: 110, name: 'settings', sql: settingsSchema },
  { version: 111, name: 'failures', sql: failuresSchema },
  // An account-side table after 105, whose secret-key column its index needs.
  { version: 112, name: 'members', sql: membersSchema },
  { version: 113, name: 'event-origin', sql: eventOriginSchema },
];
