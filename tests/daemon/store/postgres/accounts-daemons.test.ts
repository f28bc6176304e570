import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openPostgresAccountStores } from '../../../../daemon/store/postgres/accounts/index.js';
import { createUser } from '../../../helpers/accounts.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { createCompany, createSecretKey, rotateAccountKey } from '../../../helpers/keys.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { createTestApp, type TestApp } from '../../../helpers/test-app.js';
import { PgFixture } from './pg-fixture.js';

/**
 * Two daemons (two apps, each with its own pool, sharing only the database and the deployment's
 * secrets) serve one service: what one revokes, deletes or rotates is refused by the other on the
 * very next request, and failed logins spread over both count toward one lock-out.
 */
const cluster = testPostgres();
if (cluster) {
  const fx = new PgFixture(cluster);
  const test = suite('postgres: account rules across two daemons');
  test.before(() => fx.setup());
  test.after(() => fx.closeAll());
  let a: TestApp;
  let b: TestApp;
  test.before(async () => {
    const clock = new FakeClock();
    const secrets = {
      jwtSecret: randomBytes(32),
      operatorToken: `op_${randomBytes(24).toString('base64url')}`,
      mailKey: randomBytes(32),
      codeKey: randomBytes(32),
    };
    const daemon = async () => {
      const { pool } = await fx.daemon(6);
      return createTestApp({ clock, secrets, openStores: (deps) => openPostgresAccountStores(pool, deps) });
    };
    [a, b] = await Promise.all([daemon(), daemon()]);
  });

  test('a session logged out on one daemon is refused by the other on its next request', async () => {
    const u = await createUser(a);
    assert.is((await b.get('/api/me', u.auth)).status, 200);
    assert.is((await a.post('/api/auth/logout', undefined, u.auth)).status, 200);
    assert.is((await b.get('/api/me', u.auth)).status, 401);
  });

  test('a secret key deleted, or an account key rotated, on one daemon is refused by the other at once', async () => {
    const u = await createUser(a, { tier: 'company' });
    const co = await createCompany(a, u, 'Acme');
    const sk = await createSecretKey(a, u, co.id);
    const validate = (t: TestApp, headers: Record<string, string>) =>
      t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${sk.key}`, ...headers });
    const first = await rotateAccountKey(b, u);
    assert.is((await validate(a, { 'x-api-key': first })).body.account_key, true);
    const second = await rotateAccountKey(a, u);
    assert.is((await validate(b, { 'x-api-key': first })).status, 401, 'the rotated-out key');
    assert.is((await validate(b, { 'x-api-key': second })).body.account_key, true);
    assert.is((await b.del(`/api/keys/${sk.id}`, u.auth)).status, 200);
    assert.is((await validate(a, {})).status, 401, 'the deleted secret key');
  });

  test('10 wrong passwords spread over two daemons lock the account on both', async () => {
    const u = await createUser(a, { email: 'locked@example.com' });
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 ? b : a).post('/api/auth/login', { email: 'locked@example.com', password: 'wrong' });
      assert.ok([401, 429].includes(res.status), `attempt ${i + 1}: ${res.status}`);
    }
    for (const t of [a, b]) {
      const res = await t.post('/api/auth/login', { email: 'locked@example.com', password: u.password });
      assert.is(res.status, 429, 'the right password is refused during the lock-out');
      assert.is(res.body.code, 'account_locked');
    }
  });

  test.run();
}
