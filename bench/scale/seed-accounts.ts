import { systemClock } from '../../daemon/clock.js';
import { ensureDataDir, loadSecrets } from '../../daemon/data-dir.js';
import { openEventLog } from '../../daemon/store/event-log/index.js';
import { companyDataDir } from '../../daemon/company/seam.js';
import { ACCOUNT_TABLE_SPECS } from '../../daemon/store/accounts/tables.js';
import type { Table } from '../../daemon/store/engine/types.js';
import { openJournalSpace } from '../../daemon/store/journal/index.js';
import type { CompanyRecord } from '../../daemon/store/tenancy-types.js';
import type { SessionRecord, UserRecord } from '../../daemon/store/types.js';
import { writeLogFixture } from '../event-log/fixture.js';

export interface SeededAccounts {
  dataDir: string;
  /** The user the benchmark logs in as (`user0@bench.example`), and its Company. */
  email: string;
  companyId: string;
}

const BATCH = 5_000;

/**
 * Writes `users` accounts, each with a live session, straight into a data folder's accounts
 * journal through the record engine (far faster than signing them up over HTTP), plus one Company
 * owned by the first user, optionally with `events` events in its log. Every user shares one
 * password hash: hashing 100,000 passwords would take hours and measures nothing about storage.
 */
export async function seedAccounts(
  dataDir: string,
  users: number,
  passwordHash: string,
  events = 0,
): Promise<SeededAccounts> {
  ensureDataDir(dataDir);
  loadSecrets(dataDir);
  const space = await openJournalSpace(dataDir, { name: 'accounts' });
  const tables = new Map<string, Table<object>>(ACCOUNT_TABLE_SPECS.map((spec) => [spec.name, space.define(spec)]));
  const t = <T extends object>(name: string) => tables.get(name) as unknown as Table<T>;
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  for (let start = 0; start < users; start += BATCH) {
    await space.write((tx) => {
      for (let i = start; i < Math.min(users, start + BATCH); i++) {
        const id = `usr_bench${String(i).padStart(8, '0')}`;
        const user: UserRecord = {
          id,
          email: `user${i}@bench.example`,
          tier: 'company',
          created_at: iso(now - 86_400_000),
          email_verified_at: iso(now - 86_400_000),
          password_hash: passwordHash,
        };
        tx.put(t<UserRecord>('users'), user);
        const session: SessionRecord = {
          id: `ses_bench${String(i).padStart(8, '0')}`,
          user_id: id,
          kind: 'full',
          method: ['pwd'],
          created_at: iso(now - 60_000),
          last_seen_at: iso(now - 60_000),
          expires_at: iso(now + 20 * 3_600_000),
          revoked_at: null,
          user_agent: 'bench',
          ip: '127.0.0.1',
        };
        tx.put(t<SessionRecord>('sessions'), session);
      }
    });
  }
  const company: CompanyRecord = {
    id: 'com_bench0000',
    name: 'bench',
    owner_id: 'usr_bench00000000',
    created_at: iso(now - 86_400_000),
  };
  await space.write((tx) => tx.put(t<CompanyRecord>('companies'), company));
  await space.close();
  if (events > 0) {
    const companyDir = companyDataDir(dataDir, company.id);
    writeLogFixture(companyDir, events);
    // Opened and closed once, so the log has its index snapshot, as any log a daemon stopped has:
    // the daemon's first start then is a normal one, not a scan of every line (tens of seconds on a loaded machine).
    await (await openEventLog(companyDir, { clock: systemClock })).close();
  }
  return { dataDir, email: 'user0@bench.example', companyId: company.id };
}
