import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hashPassword } from '../../../daemon/auth/passwords.js';
import { createUser } from '../../helpers/accounts.js';
import { testPostgres } from '../../helpers/postgres.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../../helpers/test-app.js';

/**
 * A hash keeps the cost it was made with (its parameters are stored with it), so one made cheap —
 * under a test setting, or before the default was raised — must be upgraded when its password is
 * next proven, or it stays cheap to crack for as long as the account lives. Both account stores.
 */
const CONFIGURED = { N: 2 ** 11, r: 8, p: 1, maxmem: 32 * 1024 * 1024 };
const WEAK = { ...CONFIGURED, N: 2 ** 10 };

const cluster = testPostgres();
const modes: Array<[string, () => Promise<TestAppOptions>]> = [
  ['JSON data folder', async () => ({ storage: 'file' })],
  ...(cluster
    ? [
        ['PostgreSQL', async () => ({ database: await (await cluster()).createDatabase() })] as [
          string,
          () => Promise<TestAppOptions>,
        ],
      ]
    : []),
];

const costOf = (hash: string | null | undefined) => hash?.split('$').slice(1, 4).map(Number);

for (const [name, options] of modes) {
  const test = suite(`password hashes are upgraded at login (${name})`);
  let t: TestApp;
  test.before.each(async () => {
    t = await createTestApp({ ...(await options()), config: { auth: { passwordHash: CONFIGURED } } });
  });
  test.after.each(async () => {
    await t.close();
  });

  /** A verified user whose stored hash was made at `params`. */
  async function userHashedAt(params: typeof CONFIGURED) {
    const u = await createUser(t);
    const weak = await hashPassword(u.password, params);
    await t.deps.stores.users.update(u.user.id, (rec) => {
      rec.password_hash = weak;
    });
    return { ...u, stored: weak };
  }

  test('a hash made at N=1024 is replaced by one at the configured N after a right login', async () => {
    const u = await userHashedAt(WEAK);
    const wrong = await t.post('/api/auth/login', { email: u.user.email, password: 'not the password at all' });
    assert.is(wrong.status, 401);
    assert.is(
      (await t.deps.stores.users.findById(u.user.id))!.password_hash,
      u.stored,
      'a wrong password changes nothing',
    );

    const login = await t.post('/api/auth/login', { email: u.user.email, password: u.password });
    assert.is(login.status, 200, login.text);
    const after = (await t.deps.stores.users.findById(u.user.id))!.password_hash;
    assert.equal(costOf(after), [CONFIGURED.N, CONFIGURED.r, CONFIGURED.p]);
    assert.is.not(after, u.stored);
    assert.is((await t.post('/api/auth/login', { email: u.user.email, password: u.password })).status, 200);
  });

  test('a hash at the configured cost, or above it, is left exactly as it is', async () => {
    for (const params of [CONFIGURED, { ...CONFIGURED, N: 2 ** 12 }]) {
      const u = await userHashedAt(params);
      assert.is((await t.post('/api/auth/login', { email: u.user.email, password: u.password })).status, 200);
      assert.is((await t.deps.stores.users.findById(u.user.id))!.password_hash, u.stored);
    }
  });

  test.run();
}
