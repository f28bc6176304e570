import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CodeRecord, SessionRecord, UserRecord } from '../../../daemon/store/types.js';
import { storeImplementations } from '../../helpers/store-implementations.js';

/**
 * The compound operations of the account stores, against every implementation, under 20-way
 * concurrency: each is one atomic step (all of it or none of it), and a reopen finds what was acknowledged.
 */
const T = '2026-01-15T12:00:00.000Z';
const NOW = '2026-01-15T12:05:00.000Z';
const user = (id: string, email: string | null): UserRecord => ({ id, email, tier: 'trial', created_at: T });
const session = (id: string, userId: string): SessionRecord => ({
  id,
  user_id: userId,
  kind: 'full',
  method: ['pwd'],
  created_at: T,
  last_seen_at: T,
  expires_at: '2026-02-15T12:00:00.000Z',
  revoked_at: null,
  user_agent: null,
  ip: null,
});
const H = (c: string) => c.repeat(64 / c.length);
const loginRow = (): CodeRecord => ({
  id: 'code_1',
  purpose: 'login',
  email: 'a@example.com',
  user_id: 'u1',
  code_hash: H('ab'),
  link_hash: H('cd'),
  tries: 0,
  created_at: T,
  expires_at: '2026-01-15T12:10:00.000Z',
  ended_at: null,
});

for (const [name, make] of Object.entries(storeImplementations)) {
  const test = suite(`store conformance, compound operations: ${name}`);

  test('consume invite + create user: 20 racing signups on one invite make one account; a taken e-mail spends no invite', async () => {
    const { stores, reopen } = await make();
    await stores.invites.add('inv', T);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stores.users.createWithInvite(user(`c${i}`, `c${i}@example.com`), 'inv', NOW),
      ),
    );
    assert.is(results.filter((r) => r === 'created').length, 1);
    const winner = `c${results.indexOf('created')}`;
    for (let i = 0; i < 20; i++) await stores.invites.add(`inv${i}`, T);
    const same = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stores.users.createWithInvite(user(`d${i}`, 'same@example.com'), `inv${i}`, NOW),
      ),
    );
    assert.is(same.filter((r) => r === 'created').length, 1);
    const s = reopen ? await reopen() : stores;
    assert.is((await s.invites.find('inv'))?.used_by, winner);
    assert.ok(await s.users.findById(winner));
    assert.is(await s.users.findById(winner === 'c0' ? 'c1' : 'c0'), undefined, 'no account without the invite');
    const spent = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => (await s.invites.find(`inv${i}`))?.used_at),
    );
    assert.is(spent.filter(Boolean).length, 1, 'only the account that was made spent an invite');
  });

  test('set password + revoke sessions: every session revoked exactly once by 20 racing calls; a failed change changes nothing', async () => {
    const { stores, reopen } = await make();
    await stores.users.create(user('u1', 'a@example.com'));
    for (let i = 0; i < 30; i++) await stores.sessions.create(session(`s${i}`, 'u1'));
    const revoked = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores.users.setPassword('u1', `scrypt$h${i}`, NOW, null)),
    );
    assert.is(
      revoked.reduce((a, b) => a! + b!, 0),
      30,
    );
    await stores.sessions.create(session('kept', 'u1'));
    await stores.sessions.create(session('other', 'u1'));
    try {
      await stores.users.setPassword('u1', 'scrypt$never', NOW, 'kept', () => {
        throw new Error('refused');
      });
      assert.unreachable('the change threw');
    } catch (err) {
      assert.is((err as Error).message, 'refused');
    }
    const s = reopen ? await reopen() : stores;
    assert.is((await s.users.findById('u1'))?.password_hash, 'scrypt$h19');
    assert.equal(
      (await s.sessions.listActive('u1', NOW)).map((x) => x.id),
      ['kept', 'other'],
      'no session revoked by the failed call',
    );
  });

  test('a login-code row consumed by code and by link, 20 racing requests: exactly one wins', async () => {
    const { stores, reopen } = await make();
    await stores.codes.issue(loginRow());
    const racing = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? stores.codes.consumeLink('login', H('cd'), NOW).then((r) => r !== null)
          : stores.codes.consumeCode('login', 'a@example.com', H('ab'), NOW, 5).then((r) => r.ok),
      ),
    );
    assert.is(racing.filter(Boolean).length, 1);
    const s = reopen ? await reopen() : stores;
    assert.is(await s.codes.consumeLink('login', H('cd'), NOW), null, 'ended on disk too');
    assert.is((await s.codes.consumeCode('login', 'a@example.com', H('ab'), NOW, 5)).ok, false);
  });

  test('throttles: 20 racing hits on a bucket of 5 → 5 counted; failures lock; both survive a reopen', async () => {
    const { stores, reopen, clock } = await make();
    const now = clock.now();
    const rules = [{ limit: 5, windowMs: 60_000 }];
    const hits = await Promise.all(
      Array.from({ length: 20 }, () => stores.limits.hit('signup_email|a@example.com', rules, now)),
    );
    assert.is(hits.filter((h) => h === null).length, 5);
    assert.ok(hits.every((h) => h === null || h === 60_000));
    await Promise.all(
      Array.from({ length: 20 }, () =>
        stores.limits.fail('account|pwd:a@example.com', now, { max: 10, lockMs: 900_000 }),
      ),
    );
    await stores.limits.fail('account|pwd:b@example.com', now, { max: 10, lockMs: 900_000 });
    const s = reopen ? await reopen() : stores;
    assert.is(await s.limits.hit('signup_email|a@example.com', rules, now + 1000), 59_000, 'the bucket is still full');
    assert.is(await s.limits.lockedFor('account|pwd:a@example.com', now + 1000), 899_000, 'still locked');
    assert.is(await s.limits.failures('account|pwd:b@example.com', now), 1);
    await s.limits.succeed('account|pwd:b@example.com');
    assert.is(await s.limits.failures('account|pwd:b@example.com', now), 0);
    assert.is(await s.limits.lockedFor('account|pwd:a@example.com', now + 900_000), null, 'the lock-out ends');
    assert.is(await s.limits.hit('signup_email|a@example.com', rules, now + 60_000), null, 'the window moves on');
  });

  test.run();
}

for (const [name, make] of Object.entries(storeImplementations)) {
  const test = suite(`store conformance, list order: ${name}`);

  test('lists stay oldest first when a row is touched (sessions, secret keys, passkeys)', async () => {
    const { stores, reopen } = await make();
    for (const id of ['s1', 's2', 's3']) await stores.sessions.create(session(id, 'u1'));
    await stores.sessions.touch('s1', NOW);
    const sk = (id: string) => ({
      id,
      user_id: 'u1',
      company_id: 'c1',
      name: id,
      hash: H(id.slice(1).padStart(2, '0')),
      prefix: 'sk_abcdef…',
      created_at: T,
      last_used_at: null,
    });
    for (const id of ['k1', 'k2']) await stores.keys.addSecretKey(sk(id));
    await stores.keys.touch('secret', 'k1', NOW);
    const pk = (id: string) => ({
      id,
      user_id: 'u1',
      public_key: 'pk',
      counter: 1,
      transports: [],
      name: id,
      created_at: T,
      last_used_at: null,
    });
    for (const id of ['p1', 'p2']) await stores.passkeys.add(pk(id));
    await stores.passkeys.advanceCounter('p1', 2, NOW);
    const check = async (s: typeof stores) => {
      assert.equal(
        (await s.sessions.listActive('u1', NOW)).map((x) => x.id),
        ['s1', 's2', 's3'],
      );
      assert.equal(
        (await s.keys.listSecretKeys('u1')).map((k) => k.id),
        ['k1', 'k2'],
      );
      assert.equal(
        (await s.passkeys.listByUser('u1')).map((p) => p.id),
        ['p1', 'p2'],
      );
    };
    await check(stores);
    if (reopen) await check(await reopen());
  });

  test.run();
}
