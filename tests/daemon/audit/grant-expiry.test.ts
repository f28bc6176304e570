import * as oauth from 'oauth4webapi';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startExpiryCheck } from '../../../daemon/audit/key-expiry.js';
import { OAUTH_TTL } from '../../../daemon/oauth/lifetimes.js';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { consent, discover, registerClient } from '../../helpers/oauth.js';
import { testPostgres } from '../../helpers/postgres.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

/**
 * An OAuth grant's end is recorded when its lifetime passes, not at the client's next refused
 * request, and once: not by a later check, a restarted one or another daemon of the deployment.
 */
const cluster = testPostgres();
if (!cluster) console.log('grant-expiry: PostgreSQL not found, the two-daemon case skipped');

const GRANT_MS = OAUTH_TTL.grant * 1000;

async function expiredEntries(t: TestApp): Promise<any[]> {
  await t.deps.stores.audit.flush();
  const res = await t.get('/api/dev/audit?action=oauth.grant_expired&limit=100', t.operator);
  assert.is(res.status, 200, res.text);
  return res.body.entries;
}

/** A consented grant of a new user for a new Company; its id as the Apps page lists it. */
async function grantOf(t: TestApp) {
  const user = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, user, 'acme');
  const client = await registerClient(t, await discover(t));
  const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
  const answer = await consent(t, { client, user, companyId: co.id, challenge });
  assert.is(answer.status, 200, answer.text);
  const list = await t.get('/api/oauth/grants', user.auth);
  const grant = list.body.grants.find((g: any) => g.client.id === client.client_id);
  assert.ok(grant, list.text);
  return { user, co, client, grantId: grant.id as string };
}

const single = suite('grant expiry (one daemon)');
single('recorded once at its end, not before; a revoked grant or one to a deleted Company never', async () => {
  const t = await createTestApp();
  const check = startExpiryCheck(t.deps);
  try {
    const kept = await grantOf(t);
    const orphan = await grantOf(t);
    assert.is((await t.del(`/api/companies/${orphan.co.id}`, orphan.user.auth)).status, 200);
    const revoked = await grantOf(t);
    const del = await t.request({
      method: 'DELETE',
      url: `/api/oauth/grants/${revoked.grantId}`,
      headers: revoked.user.auth,
    });
    assert.is(del.status, 200, del.text);
    t.clock.advance(GRANT_MS - 60_000);
    assert.is(await check.check(), 0, 'a minute before its end, nothing');
    t.clock.advance(3 * 60_000);
    // OAuth writes sweep the records that expired (a few hundred minutes at each, from a week
    // before the first): once they have caught up, the ended grant's binding must still be there.
    await grantOf(t);
    const now = new Date(t.clock.now()).toISOString();
    const filler = { kind: 'Filler', id_hash: 'f', payload: {}, grant_id: null, uid: null, consumed_at: null };
    for (let i = 0; i < 400; i++) await t.deps.stores.oauth.put({ ...filler, expires_at: null }, now);
    assert.is(await check.check(), 1);
    assert.is(await check.check(), 0, 'a second check records nothing');
    const again = startExpiryCheck(t.deps);
    assert.is(await again.check(), 0, 'nor does a restarted check');
    again.stop();
    const entries = await expiredEntries(t);
    assert.is(entries.length, 1);
    const [entry] = entries;
    assert.is(entry.target, kept.grantId);
    assert.is(entry.actor.type, 'operator');
    assert.is(entry.user_id, kept.user.user.id);
    assert.is(entry.company_id, kept.co.id);
    assert.is(entry.outcome, 'succeeded');
    assert.is(entry.details.client_id, kept.client.client_id);
    assert.ok(entry.details.expires_at < entry.at);
  } finally {
    check.stop();
    await t.close();
  }
});
single.run();

if (cluster) {
  const team = suite('grant expiry (two daemons on PostgreSQL)');
  team('two daemons checking the same minute record the grant’s end once', async () => {
    const database = await (await cluster()).createDatabase();
    const a = await createTestApp({ database });
    const b = await createTestApp({ database });
    const checks = [startExpiryCheck(a.deps), startExpiryCheck(b.deps)];
    try {
      b.clock.set(a.clock.now());
      const { grantId } = await grantOf(a);
      for (const t of [a, b]) t.clock.advance(GRANT_MS + 3 * 60_000);
      // A write on B after the end sweeps expired records in the shared table.
      await grantOf(b);
      const counts = await Promise.all(checks.map((c) => c.check()));
      assert.is(counts[0]! + counts[1]!, 1, `recorded ${counts.join(' + ')} times`);
      assert.is(await checks[1]!.check(), 0);
      assert.equal(
        (await expiredEntries(b)).map((e) => e.target),
        [grantId],
      );
    } finally {
      for (const c of checks) c.stop();
      await a.close();
      await b.close();
    }
  });
  team.run();
}
