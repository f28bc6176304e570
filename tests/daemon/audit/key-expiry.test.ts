import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startExpiryCheck } from '../../../daemon/audit/key-expiry.js';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { testPostgres } from '../../helpers/postgres.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

/**
 * A key's expiry is recorded when it passes, not at the key's next use, and once: by each check
 * after it (a restart, another daemon of the deployment) it is not recorded again.
 */
const cluster = testPostgres();
if (!cluster) console.log('key-expiry: PostgreSQL not found, the two-daemon case skipped');

async function expiredEntries(t: TestApp): Promise<any[]> {
  await t.deps.stores.audit.flush();
  const res = await t.get('/api/dev/audit?action=key.expired&limit=100', t.operator);
  assert.is(res.status, 200, res.text);
  return res.body.entries;
}

async function keysOf(t: TestApp) {
  const user = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, user, 'acme');
  const make = async (body: Record<string, unknown>) => {
    const res = await t.post('/api/keys', { root: co.id, name: 'k', ...body }, user.auth);
    assert.is(res.status, 201, res.text);
    return res.body.id as string;
  };
  return {
    user,
    co,
    soon: await make({ expires_in: 3600 }),
    later: await make({ expires_in: 86_400 }),
    never: await make({}),
  };
}

const single = suite('key expiry (one daemon)');
single('recorded within the minute it passes, unused, once; a key without expiry never', async () => {
  const t = await createTestApp();
  const check = startExpiryCheck(t.deps);
  try {
    const { user, co, soon } = await keysOf(t);
    assert.is(await check.check(), 0);
    t.clock.advance(3600_000 + 30_000);
    assert.is(await check.check(), 1);
    assert.is(await check.check(), 0, 'a second check records nothing');
    const again = startExpiryCheck(t.deps);
    assert.is(await again.check(), 0, 'nor does a restarted check');
    again.stop();
    const [entry] = await expiredEntries(t);
    assert.is(entry.target, soon);
    assert.is(entry.user_id, user.user.id);
    assert.is(entry.company_id, co.id);
    assert.ok(entry.details.expires_at < entry.at);
    // The owner sees it in their own list.
    const mine = await t.get('/api/audit?action=key.expired', user.auth);
    assert.equal(
      mine.body.entries.map((e: any) => e.target),
      [soon],
    );
    t.clock.advance(86_400_000);
    assert.is(await check.check(), 1, 'the day key, and not the one without expiry');
    assert.is((await expiredEntries(t)).length, 2);
  } finally {
    check.stop();
    await t.close();
  }
});
single.run();

if (cluster) {
  const team = suite('key expiry (two daemons on PostgreSQL)');
  team('two daemons checking the same minute record the expiry once', async () => {
    const database = await (await cluster()).createDatabase();
    const a = await createTestApp({ database });
    const b = await createTestApp({ database });
    const checks = [startExpiryCheck(a.deps), startExpiryCheck(b.deps)];
    try {
      b.clock.set(a.clock.now());
      const { soon } = await keysOf(a);
      for (const t of [a, b]) t.clock.advance(3600_000 + 30_000);
      const counts = await Promise.all(checks.map((c) => c.check()));
      assert.is(counts[0]! + counts[1]!, 1, `recorded ${counts.join(' + ')} times`);
      assert.is(await checks[1]!.check(), 0);
      const entries = await expiredEntries(b);
      assert.equal(
        entries.map((e) => e.target),
        [soon],
      );
    } finally {
      for (const c of checks) c.stop();
      await a.close();
      await b.close();
    }
  });
  team.run();
}
