import type pg from 'pg';
import type { StoreDeps } from '../../index.js';
import type { Stores } from '../../types.js';
import { createPostgresLimitStore } from '../limit-store.js';
import { createPostgresCodeStore } from './codes.js';
import { createPostgresChallengeStore, createPostgresPasskeyStore, createPostgresWalletStore } from './factors.js';
import { createPostgresOAuthStore } from './oauth.js';
import { createPostgresAuditStore } from '../audit.js';
import { createPostgresOutbox } from './outbox.js';
import { createPostgresSessionStore } from './sessions.js';
import { createPostgresCompanyStore, createPostgresKeyStore } from './tenancy.js';
import { createPostgresMemberStore } from './members.js';
import { createPostgresInviteStore, createPostgresUserStore } from './users.js';

/**
 * The account stores of team mode, on the tables of migration 2 (run `runMigrations` first: this
 * only builds the stores). Nothing is cached: every read asks the database, so what one daemon
 * changes (a revoked session, a deleted or rotated key) is what every daemon sees on its next call,
 * and every compound operation is one transaction or one statement. Every write has committed
 * when its promise resolves (audit appends once their batch committed: `flush` waits for those); the pool belongs to its opener
 * (the daemon, which shares it with the event log and the per-Company stores), so `close` leaves it
 * open: close the `Database` itself once every user of the pool is done.
 */
export async function openPostgresAccountStores(pool: pg.Pool, deps: StoreDeps): Promise<Stores> {
  // A clear line at start rather than "relation svc_users does not exist" on the first request.
  const { rows } = await pool.query<{ ok: boolean }>(
    `SELECT to_regclass('svc_schema_migrations') IS NOT NULL AND to_regclass('svc_users') IS NOT NULL AS ok`,
  );
  if (!rows[0]?.ok) throw new Error('the database has no account tables yet (migration 2): run the migrations first');
  const audit = createPostgresAuditStore(pool);
  return {
    users: createPostgresUserStore(pool),
    invites: createPostgresInviteStore(pool),
    sessions: createPostgresSessionStore(pool),
    codes: createPostgresCodeStore(pool),
    companies: createPostgresCompanyStore(pool),
    members: createPostgresMemberStore(pool),
    keys: createPostgresKeyStore(pool),
    challenges: createPostgresChallengeStore(pool),
    passkeys: createPostgresPasskeyStore(pool),
    wallets: createPostgresWalletStore(pool),
    limits: createPostgresLimitStore(pool),
    oauth: createPostgresOAuthStore(pool),
    outbox: createPostgresOutbox(pool, { clock: deps.clock, ids: deps.ids, sealer: deps.sealer, max: deps.outboxMax }),
    audit,
    // Audit appends are group-committed: flushing waits for the batch in flight.
    flush: () => audit.flush(),
    close: () => audit.close(),
  };
}
