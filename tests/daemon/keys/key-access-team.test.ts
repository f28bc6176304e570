import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { createCompany } from '../../helpers/keys.js';
import { testPostgres } from '../../helpers/postgres.js';
import { createTestApp } from '../../helpers/test-app.js';

/**
 * Two daemons of one team on one database (and one clock): a rotation made through one is seen by
 * the other, whose next request with the old key after the overlap is refused; so are an expiry
 * and a scope, read from the key's row on every request (nothing is cached per daemon).
 */
const cluster = testPostgres();

if (cluster) {
  test('rotation, expiry and scopes hold on the other daemon on its next request', async () => {
    const database = await (await cluster()).createDatabase();
    const clock = new FakeClock();
    const a = await createTestApp({ database, clock });
    const b = await createTestApp({ database, clock });
    try {
      const owner = await createUser(a, { tier: 'company' });
      const co = await createCompany(a, owner, 'acme');
      const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
      const made = await a.post(
        '/api/keys',
        { root: co.id, name: 'ci', scopes: ['agents:read'], expires_in: 7200 },
        owner.auth,
      );
      const old = made.body;
      assert.is((await b.get('/api/agents', bearer(old.secret_key))).status, 200);
      const refused = await b.post('/api/agents', { name: 'x' }, bearer(old.secret_key));
      assert.equal([refused.status, refused.body.required_scope], [403, 'agents:write']);

      const rotated = await a.post(`/api/keys/${old.id}/rotate`, { overlap_seconds: 60 }, owner.auth);
      assert.is(rotated.status, 201);
      assert.is((await b.post(`/api/keys/${old.id}/rotate`, { overlap_seconds: 60 }, owner.auth)).status, 409);
      assert.is((await b.get('/api/agents', bearer(old.secret_key))).status, 200, 'inside the overlap');
      clock.advance(60_000);
      const stopped = await b.get('/api/agents', bearer(old.secret_key));
      assert.equal([stopped.status, stopped.body.code], [401, 'invalid_key']);
      assert.is((await b.get('/api/agents', bearer(rotated.body.secret_key))).status, 200);

      clock.advance(7200_000);
      const expired = await b.get('/api/agents', bearer(rotated.body.secret_key));
      assert.equal([expired.status, expired.body.code], [401, 'key_expired']);
    } finally {
      await a.close();
      await b.close();
    }
  });
}

test.run();
