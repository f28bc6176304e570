import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openPostgresAccountStores } from '../../../../daemon/store/postgres/accounts/index.js';
import { StoreConflict, type CodeRecord, type Stores, type UserRecord } from '../../../../daemon/store/types.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { testPostgres } from '../../../helpers/postgres.js';
import { storeDepsFor } from '../../../helpers/store-implementations.js';
import { PgFixture } from './pg-fixture.js';

/**
 * The account stores' compound operations with two daemons (two pools, no connection shared) on
 * one database: whatever daemon each request reaches, a code or challenge is consumed once, an
 * e-mail makes one account, a user keeps one account key, and wrong tries add up.
 */
const T = '2026-01-15T12:00:00.000Z';
const NOW = '2026-01-15T12:05:00.000Z';
const H = (c: string) => c.repeat(64 / c.length);
const user = (id: string, email: string): UserRecord => ({ id, email, tier: 'trial', created_at: T });
const code = (id: string, email: string): CodeRecord => ({
  id,
  purpose: 'login',
  email,
  user_id: 'u1',
  code_hash: H('ab'),
  link_hash: H(id.length % 2 ? 'cd' : 'ef'),
  tries: 0,
  created_at: T,
  expires_at: '2026-01-15T12:10:00.000Z',
  ended_at: null,
});

const cluster = testPostgres();
if (cluster) {
  const fx = new PgFixture(cluster);
  const test = suite('postgres: account stores shared by two daemons');
  test.before(() => fx.setup());
  test.after(() => fx.closeAll());
  let pair: [Stores, Stores];
  test.before(async () => {
    const clock = new FakeClock();
    const [a, b] = await Promise.all([fx.daemon(6), fx.daemon(6)]);
    pair = [
      await openPostgresAccountStores(a.pool, storeDepsFor(clock)),
      await openPostgresAccountStores(b.pool, storeDepsFor(clock)),
    ];
  });
  /** `count` calls spread over both daemons, all in flight at once. */
  const onEither = <T>(count: number, run: (s: Stores, i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: count }, (_, i) => run(pair[i % 2]!, i)));

  test('one login code, 20 consumers over two daemons by code and by link: exactly one wins', async () => {
    await pair[0].codes.issue(code('c1', 'race@example.com'));
    const won = await onEither(20, (s, i) =>
      i % 4 < 2
        ? s.codes.consumeCode('login', 'race@example.com', H('ab'), NOW, 5).then((r) => r.ok)
        : s.codes.consumeLink('login', H('cd'), NOW).then((r) => r !== null),
    );
    assert.is(won.filter(Boolean).length, 1);
  });

  test('wrong codes on two daemons add up: the 5th burns the row, and then the right code fails', async () => {
    await pair[0].codes.issue(code('c2', 'tries@example.com'));
    const reasons = await onEither(5, (s) => s.codes.consumeCode('login', 'tries@example.com', H('00'), NOW, 5));
    assert.equal(reasons.map((r) => (r.ok ? 'ok' : r.reason)).sort(), ['burned', 'wrong', 'wrong', 'wrong', 'wrong']);
    assert.is((await pair[1].codes.consumeCode('login', 'tries@example.com', H('ab'), NOW, 5)).ok, false);
  });

  test('codes issued at once on two daemons leave one live code: a new code ends every older one', async () => {
    await onEither(10, (s, i) => s.codes.issue({ ...code(`i${i}`, 'issue@example.com'), link_hash: null }));
    const ok = await onEither(10, (s) => s.codes.consumeCode('login', 'issue@example.com', H('ab'), NOW, 5));
    assert.is(ok.filter((r) => r.ok).length, 1);
  });

  test('one challenge, 20 consumers over two daemons: exactly one gets it', async () => {
    await pair[1].challenges.create({
      id: 'chl_1',
      kind: 'siwe_nonce',
      subject: '0xabc',
      secret_hash: H('12'),
      tries: 0,
      created_at: T,
      expires_at: '2026-01-15T12:10:00.000Z',
      ended_at: null,
    });
    const got = await onEither(20, (s) => s.challenges.consume('siwe_nonce', H('12'), NOW));
    assert.is(got.filter(Boolean).length, 1);
  });

  test('one e-mail signed up 20 times at once over two daemons: one account, one invite spent', async () => {
    for (let i = 0; i < 20; i++) await pair[0].invites.add(`inv${i}`, T);
    const results = await onEither(20, (s, i) =>
      s.users.createWithInvite(user(`s${i}`, 'same@example.com'), `inv${i}`, NOW),
    );
    assert.is(results.filter((r) => r === 'created').length, 1);
    assert.ok(results.every((r) => r === 'created' || r === 'email_taken'));
    const winner = `s${results.indexOf('created')}`;
    assert.is((await pair[1].users.findByEmail('same@example.com'))?.id, winner);
    const spent = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => (await pair[1].invites.find(`inv${i}`))?.used_by),
    );
    assert.equal(spent.filter(Boolean), [winner]);
    const plain = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => pair[i % 2]!.users.create(user(`p${i}`, 'plain@example.com'))),
    );
    assert.is(plain.filter((r) => r.status === 'fulfilled').length, 1);
    assert.ok(plain.every((r) => r.status === 'fulfilled' || r.reason instanceof StoreConflict));
  });

  test('account keys rotated at once on two daemons: the user keeps one, and only it is accepted', async () => {
    const keys = await onEither(10, async (s, i) => {
      const key = {
        id: `ak${i}`,
        user_id: 'u_keys',
        hash: H(String(10 + i)),
        prefix: 'ak_x',
        created_at: T,
        last_used_at: null,
      };
      return { key, rotated: (await s.keys.setAccountKey(key)).rotated };
    });
    assert.is(keys.filter((k) => !k.rotated).length, 1, 'only the first installed replaced nothing');
    const kept = await pair[0].keys.accountKeyOf('u_keys');
    assert.ok(kept);
    for (const { key } of keys)
      assert.is((await pair[1].keys.findAccountKeyByHash(key.hash))?.id, key.id === kept.id ? kept.id : undefined);
  });

  test.run();
}
