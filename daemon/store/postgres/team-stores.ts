import type pg from 'pg';
import type { StoreDeps } from '../index.js';
import type { Stores } from '../types.js';
import { openPostgresAccountStores } from './accounts/index.js';

/**
 * The one place where team mode takes its account stores (users, invites, sessions, codes,
 * Companies, keys, factors, limits, outbox) on PostgreSQL. Everything else of team mode is wired
 * around this call (daemon/daemon-storage.ts).
 */
export type OpenAccountStores = (pool: pg.Pool, deps: StoreDeps) => Promise<Stores>;

/**
 * Set only when every account store is on PostgreSQL: without it team mode is refused at start
 * (daemon-options.ts), never run with accounts in a data folder beside shared runtime tables.
 */
export const openPostgresAccounts: OpenAccountStores | null = openPostgresAccountStores;
