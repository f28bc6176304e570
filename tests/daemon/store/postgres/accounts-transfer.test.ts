import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openPostgresAccountStores } from '../../../../daemon/store/postgres/accounts/index.js';
import {
  ACCOUNT_TABLES,
  type AccountTableName,
  dumpAccountTable,
  loadAccountRecords,
} from '../../../../daemon/store/postgres/accounts/transfer.js';
import { withTransaction } from '../../../../daemon/store/postgres/connect.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { storeDepsFor } from '../../../helpers/store-implementations.js';
import { PgFixture } from './pg-fixture.js';

/** Every account table out of one database and into another (what `svc admin export/import` builds on). */
const T = '2026-01-15T12:00:00.000Z';
const cluster = testPostgres();
if (cluster) {
  const from = new PgFixture(cluster);
  const to = new PgFixture(cluster);
  const test = suite('postgres: account tables dumped and loaded');
  test.before(async () => {
    await from.setup();
    await to.setup();
  });
  test.after(async () => {
    await from.closeAll();
    await to.closeAll();
  });

  test('a dump loaded into an empty database serves the same accounts, in the same order', async () => {
    const clock = new FakeClock();
    const source = (await from.daemon()).pool;
    const src = await openPostgresAccountStores(source, storeDepsFor(clock));
    await src.users.create({ id: 'u1', email: 'a@example.com', tier: 'trial', created_at: T, display_name: 'A\u0000' });
    await src.invites.add('inv', T);
    for (const id of ['s2', 's1'])
      await src.sessions.create({
        id,
        user_id: 'u1',
        kind: 'full',
        method: ['pwd'],
        created_at: T,
        last_seen_at: T,
        expires_at: '2026-02-15T12:00:00.000Z',
        revoked_at: null,
        user_agent: null,
        ip: null,
      });
    await src.companies.create({ id: 'co1', owner_id: 'u1', name: 'Acme', created_at: T });
    await src.keys.setAccountKey({
      id: 'ak1',
      user_id: 'u1',
      hash: 'h',
      prefix: 'ak_',
      created_at: T,
      last_used_at: null,
    });
    await src.wallets.link('0xABC', 'u1', T);
    await src.outbox.record({ to: 'a@example.com', subject: 'hi', text: 'code 123456', code: '123456' });

    const target = (await to.daemon()).pool;
    const counts: Record<string, number> = {};
    await withTransaction(target, async (client) => {
      for (const name of Object.keys(ACCOUNT_TABLES) as AccountTableName[])
        counts[name] = await loadAccountRecords(client, name, await dumpAccountTable(source, name));
    });
    assert.equal(counts, {
      users: 1,
      invites: 1,
      sessions: 2,
      codes: 0,
      mail: 1,
      companies: 1,
      secret_keys: 0,
      account_keys: 1,
      challenges: 0,
      passkeys: 0,
      wallets: 1,
      memberships: 0,
      invitations: 0,
    });
    const dst = await openPostgresAccountStores(target, storeDepsFor(clock));
    assert.is((await dst.users.findByEmail('a@example.com'))?.display_name, 'A\u0000');
    assert.equal(
      (await dst.sessions.listActive('u1', T)).map((s) => s.id),
      ['s2', 's1'],
    );
    assert.is((await dst.keys.findAccountKeyByHash('h'))?.id, 'ak1');
    assert.is(await dst.wallets.findUserId('0xabc'), 'u1');
    assert.is((await dst.outbox.list({ to: 'A@example.com' }))[0]?.code, '123456', 'opened with the same mail key');
    assert.is(await dst.invites.consume('inv', T, 'u1'), true);
  });

  test('a record breaking a unique rule is refused with its table named, and the import rolls back', async () => {
    const target = (await to.daemon()).pool;
    const user = (id: string) => ({ id, email: 'twice@example.com', tier: 'trial' as const, created_at: T });
    const err = await withTransaction(target, (client) =>
      loadAccountRecords(client, 'users', [user('x1'), user('x2')]),
    ).catch((e: Error) => e);
    assert.match((err as Error).message, /^users: record 2 could not be loaded: .*svc_users_email/);
    assert.is((await dumpAccountTable(target, 'users')).filter((u) => u.email === 'twice@example.com').length, 0);
  });

  test.run();
}
