import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../helpers/accounts.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { createCompany } from '../helpers/keys.js';
import { testPostgres } from '../helpers/postgres.js';
import { joinAs, patch } from '../helpers/team.js';
import { createTestApp } from '../helpers/test-app.js';

/**
 * SECURITY.md attack case 24: a member removed or a role lowered is refused on the next request,
 * on every daemon. Two daemons of one deployment (two apps on one database, one clock): every
 * change goes through A, every request that must be refused goes to B, which caches nothing.
 */
const cluster = testPostgres();

if (cluster) {
  test('case 24: a lowered role and a removal hold on the other daemon on the very next request', async () => {
    const database = await (await cluster()).createDatabase();
    const clock = new FakeClock();
    const a = await createTestApp({ database, clock });
    const b = await createTestApp({ database, clock });
    try {
      const owner = await createUser(a, { tier: 'company' });
      const co = await createCompany(a, owner, 'acme');
      const bob = await joinAs(a, owner, co.id, 'admin', { via: b });
      const at = { ...bob.auth, 'x-company': co.id };
      const key = (await b.post('/api/keys', { root: co.id, name: 'bob ci' }, bob.auth)).body;
      assert.is((await b.post('/api/agents', { name: 'x' }, at)).status, 201, 'the control: an admin configures');
      assert.is((await b.get(`/api/companies/${co.id}/invitations`, bob.auth)).status, 200);

      assert.is(
        (await patch(a, `/api/companies/${co.id}/members/${bob.user.id}`, { role: 'viewer' }, owner.auth)).status,
        200,
      );
      const lowered = await b.post('/api/agents', { name: 'y' }, at);
      assert.equal(
        [lowered.status, lowered.body.code, lowered.body.required_scope],
        [403, 'insufficient_scope', 'agents:write'],
      );
      assert.is((await b.get(`/api/companies/${co.id}/invitations`, bob.auth)).body.required_scope, 'members:write');
      assert.is((await b.get('/api/agents', at)).status, 200, 'a viewer still reads');

      const removed = await a.del(`/api/companies/${co.id}/members/${bob.user.id}`, owner.auth);
      assert.equal(
        removed.body.keys.map((k: any) => k.id),
        [key.id],
      );
      for (const res of [
        await b.get('/api/agents', at),
        await b.get(`/api/companies/${co.id}/members`, bob.auth),
        await b.post(`/api/companies/${co.id}/leave`, {}, bob.auth),
      ])
        assert.equal([res.status, res.body.code], [403, 'company_forbidden']);
      assert.is((await b.del(`/api/keys/${key.id}`, bob.auth)).status, 404, 'no longer manages the Company key');
      assert.is(
        (await b.get('/api/agents', { authorization: `Bearer ${key.secret_key}` })).status,
        200,
        'the Company key stays',
      );
      assert.equal((await b.get('/api/companies', bob.auth)).body.companies, []);
    } finally {
      await a.close();
      await b.close();
    }
  });
}

test.run();
