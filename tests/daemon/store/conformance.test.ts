import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openFileStores } from '../../../daemon/store/index.js';
import { StoreConflict, type CodeRecord } from '../../../daemon/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { storeDepsFor, storeImplementations } from '../../helpers/store-implementations.js';
import { readJournalText } from '../../helpers/journal-text.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** One conformance suite, run against every implementation of the storage seam. */

const user = (id: string, email: string | null) => ({
  id,
  email,
  tier: 'trial' as const,
  created_at: '2026-01-01T00:00:00.000Z',
});

for (const [name, make] of Object.entries(storeImplementations)) {
  const test = suite(`store conformance: ${name}`);

  test('outbox lists oldest first, filters by recipient and since_id', async () => {
    const { stores } = await make();
    const a = await stores.outbox.record({ to: 'A@example.com', subject: 's1', text: 't1', code: '123456' });
    await stores.outbox.record({ to: 'b@example.com', subject: 's2', text: 't2', link: 'http://x/y' });
    const c = await stores.outbox.record({ to: 'a@example.com', subject: 's3', text: 't3' });
    const all = await stores.outbox.list();
    assert.equal(
      all.map((m) => m.subject),
      ['s1', 's2', 's3'],
    );
    assert.equal(all[0]!.code, '123456');
    assert.equal(all[1]!.link, 'http://x/y');
    assert.equal(all[2]!.code, null);
    assert.equal(
      (await stores.outbox.list({ to: 'a@EXAMPLE.com' })).map((m) => m.id),
      [a.id, c.id],
    );
    assert.equal(
      (await stores.outbox.list({ sinceId: a.id })).map((m) => m.subject),
      ['s2', 's3'],
    );
  });

  test('outbox keeps only the newest messages past its cap', async () => {
    const { stores } = await make();
    for (let i = 0; i < 8; i++) await stores.outbox.record({ to: 'a@example.com', subject: `s${i}`, text: '' });
    assert.equal(
      (await stores.outbox.list()).map((m) => m.subject),
      ['s3', 's4', 's5', 's6', 's7'],
    );
  });

  test('an invite is consumed once, even by concurrent requests', async () => {
    const { stores } = await make();
    await stores.invites.add('h1', '2026-01-01T00:00:00.000Z');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores.invites.consume('h1', 'now', `u${i}`)),
    );
    assert.is(results.filter(Boolean).length, 1);
    assert.is(await stores.invites.consume('unknown', 'now', 'u'), false);
    assert.ok((await stores.invites.find('h1'))?.used_at);
  });

  test('users: create, find by id and e-mail, refuse a taken e-mail, set the tier', async () => {
    const { stores } = await make();
    await stores.users.create(user('u1', 'a@example.com'));
    assert.is((await stores.users.findById('u1'))?.email, 'a@example.com');
    assert.is((await stores.users.findByEmail('A@Example.com'))?.id, 'u1');
    try {
      await stores.users.create(user('u2', 'a@example.com'));
      assert.unreachable('duplicate e-mail accepted');
    } catch (err) {
      assert.instance(err, StoreConflict);
    }
    assert.is((await stores.users.setTier('u1', 'company'))?.tier, 'company');
    assert.is(await stores.users.setTier('nobody', 'company'), undefined);
  });

  test('concurrent writes lose no update', async () => {
    const { stores, reopen } = await make();
    await Promise.all(Array.from({ length: 50 }, (_, i) => stores.users.create(user(`u${i}`, `u${i}@example.com`))));
    const check = reopen ? await reopen() : stores;
    for (let i = 0; i < 50; i++) assert.ok(await check.users.findById(`u${i}`), `u${i} missing`);
  });

  // accounts: users.update, signup with invite, password + sessions, sessions, codes
  test('users.update changes atomically, refuses a taken e-mail and leaves no half-edit', async () => {
    const { stores } = await make();
    await stores.users.create(user('u1', 'a@example.com'));
    await stores.users.create(user('u2', 'b@example.com'));
    assert.is((await stores.users.update('u1', (u) => void (u.display_name = 'Ann')))?.display_name, 'Ann');
    try {
      await stores.users.update('u1', (u) => {
        u.display_name = 'half';
        u.email = 'b@example.com';
      });
      assert.unreachable("took another user's e-mail");
    } catch (err) {
      assert.instance(err, StoreConflict);
    }
    assert.equal(
      [(await stores.users.findById('u1'))?.email, (await stores.users.findById('u1'))?.display_name],
      ['a@example.com', 'Ann'],
    );
    assert.is(await stores.users.update('nobody', () => {}), undefined);
  });

  test('users.createWithInvite spends the invite only when the account is made', async () => {
    const { stores } = await make();
    await stores.invites.add('inv', 'then');
    await stores.users.create(user('u0', 'taken@example.com'));
    assert.is(await stores.users.createWithInvite(user('u1', 'taken@example.com'), 'inv', 'now'), 'email_taken');
    assert.is((await stores.invites.find('inv'))?.used_at, null);
    assert.is(await stores.users.createWithInvite(user('u2', 'x@example.com'), 'unknown', 'now'), 'invite_invalid');
    assert.is(await stores.users.findById('u2'), undefined);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        stores.users.createWithInvite(user(`c${i}`, `c${i}@example.com`), 'inv', 'now'),
      ),
    );
    assert.is(results.filter((r) => r === 'created').length, 1);
    assert.is((await stores.invites.find('inv'))?.used_by, `c${results.indexOf('created')}`);
  });

  const session = (id: string, userId: string, expires = '2026-01-02T00:00:00.000Z') => ({
    id,
    user_id: userId,
    kind: 'full' as const,
    method: ['pwd'],
    created_at: '2026-01-01T00:00:00.000Z',
    last_seen_at: '2026-01-01T00:00:00.000Z',
    expires_at: expires,
    revoked_at: null,
    user_agent: null,
    ip: null,
  });

  test("sessions: list the live ones, revoke only one's own, revoke all but one, touch", async () => {
    const { stores, reopen } = await make();
    for (const s of [
      session('s1', 'u1'),
      session('s2', 'u1'),
      session('s3', 'u1', '2026-01-01T00:30:00.000Z'),
      session('t1', 'u2'),
    ])
      await stores.sessions.create(s);
    assert.equal(
      (await stores.sessions.listActive('u1', '2026-01-01T01:00:00.000Z')).map((s) => s.id),
      ['s1', 's2'],
    );
    assert.is(await stores.sessions.revoke('t1', 'u1', 'x'), false, "another user's session");
    assert.is((await stores.sessions.find('t1'))?.revoked_at, null);
    assert.is(await stores.sessions.revoke('s1', 'u1', '2026-01-01T01:00:00.000Z'), true);
    assert.is(await stores.sessions.revoke('s1', 'u1', 'again'), false);
    // auth_at (the login a paired session descends from) is optional: kept as given, across a reopen.
    await stores.sessions.create({ ...session('s4', 'u1'), auth_at: '2025-12-31T23:55:00.000Z' });
    assert.is(await stores.sessions.revokeAll('u1', '2026-01-01T01:00:00.000Z', 's4'), 2);
    await stores.sessions.touch('s4', '2026-01-01T02:00:00.000Z');
    const check = reopen ? await reopen() : stores;
    assert.equal(
      (await check.sessions.listActive('u1', '2026-01-01T01:00:00.000Z')).map((s) => s.id),
      ['s4'],
    );
    assert.is((await check.sessions.find('s4'))?.last_seen_at, '2026-01-01T02:00:00.000Z');
    assert.is((await check.sessions.find('s4'))?.auth_at, '2025-12-31T23:55:00.000Z');
    assert.is((await check.sessions.find('s1'))?.auth_at, undefined);
    assert.is((await check.sessions.find('t1'))?.revoked_at, null);
  });

  test('users.setPassword sets the hash and revokes the sessions but the kept one, in one step', async () => {
    const { stores } = await make();
    await stores.users.create(user('u1', 'a@example.com'));
    for (const id of ['s1', 's2', 's3']) await stores.sessions.create(session(id, 'u1'));
    await stores.sessions.create(session('t1', 'u2'));
    assert.is(await stores.users.setPassword('u1', 'scrypt$new', '2026-01-01T01:00:00.000Z', 's2'), 2);
    assert.is((await stores.users.findById('u1'))?.password_hash, 'scrypt$new');
    // A pairing approved before this change is void at collection: it compares this stamp.
    assert.is((await stores.users.findById('u1'))?.password_changed_at, '2026-01-01T01:00:00.000Z');
    assert.equal(
      (await stores.sessions.listActive('u1', '2026-01-01T01:00:00.000Z')).map((s) => s.id),
      ['s2'],
    );
    assert.is(await stores.users.setPassword('u1', 'scrypt$newer', 'later', null), 1);
    assert.is((await stores.sessions.find('t1'))?.revoked_at, null);
    assert.is(await stores.users.setPassword('nobody', 'h', 'x', null), undefined);
  });

  const code = (id: string, email: string, codeHash: string, extra: Partial<CodeRecord> = {}): CodeRecord => ({
    id,
    purpose: 'verify',
    email,
    user_id: 'u1',
    code_hash: codeHash,
    link_hash: null,
    tries: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    expires_at: '2026-01-01T00:10:00.000Z',
    ended_at: null,
    ...extra,
  });
  const NOW = '2026-01-01T00:05:00.000Z';
  const H = (c: string) => c.repeat(64 / c.length);

  test('codes: 20 concurrent consumes of the right code → exactly one ok', async () => {
    const { stores } = await make();
    await stores.codes.issue(code('c1', 'a@example.com', H('ab')));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => stores.codes.consumeCode('verify', 'a@example.com', H('ab'), NOW, 5)),
    );
    assert.is(results.filter((r) => r.ok).length, 1);
  });

  test('codes: 5 wrong tries burn the row; the right code then fails', async () => {
    const { stores } = await make();
    await stores.codes.issue(code('c1', 'a@example.com', H('ab')));
    const reasons = [];
    for (let i = 0; i < 5; i++) {
      const r = await stores.codes.consumeCode('verify', 'a@example.com', H('cd'), NOW, 5);
      reasons.push(r.ok ? 'ok' : r.reason);
    }
    assert.equal(reasons, ['wrong', 'wrong', 'wrong', 'wrong', 'burned']);
    assert.is((await stores.codes.consumeCode('verify', 'a@example.com', H('ab'), NOW, 5)).ok, false);
  });

  test('codes: expiry, other e-mail, other purpose, a new code ends the old', async () => {
    const { stores } = await make();
    await stores.codes.issue(code('c1', 'a@example.com', H('ab')));
    const late = await stores.codes.consumeCode('verify', 'a@example.com', H('ab'), '2026-01-01T00:10:00.001Z', 5);
    assert.equal(late, { ok: false, reason: 'expired' });
    await stores.codes.issue(code('c2', 'a@example.com', H('ab')));
    assert.is(
      (await stores.codes.consumeCode('verify', 'b@example.com', H('ab'), NOW, 5)).ok,
      false,
      'code for A used with B',
    );
    assert.is((await stores.codes.consumeCode('login', 'a@example.com', H('ab'), NOW, 5)).ok, false, 'other purpose');
    await stores.codes.issue(
      code('c3', 'a@example.com', H('ef'), {
        created_at: '2026-01-01T00:01:00.000Z',
        expires_at: '2026-01-01T00:11:00.000Z',
      }),
    );
    assert.is((await stores.codes.consumeCode('verify', 'a@example.com', H('ab'), NOW, 5)).ok, false, 'superseded');
    const fresh = await stores.codes.consumeCode('verify', 'a@example.com', H('ef'), NOW, 5);
    assert.ok(fresh.ok && fresh.record.id === 'c3');
  });

  test("codes: a link is consumed once, not after expiry, and endAll ends a user's live rows", async () => {
    const { stores } = await make();
    await stores.codes.issue(
      code('l1', 'a@example.com', '', { purpose: 'password_reset', code_hash: null, link_hash: H('12') }),
    );
    const links = await Promise.all(
      Array.from({ length: 20 }, () => stores.codes.consumeLink('password_reset', H('12'), NOW)),
    );
    assert.is(links.filter(Boolean).length, 1);
    await stores.codes.issue(
      code('l2', 'a@example.com', '', { purpose: 'password_reset', code_hash: null, link_hash: H('34') }),
    );
    assert.is(await stores.codes.consumeLink('password_reset', H('34'), '2026-01-01T00:10:00.001Z'), null);
    await stores.codes.issue(
      code('l3', 'a@example.com', '', { purpose: 'password_reset', code_hash: null, link_hash: H('56') }),
    );
    await stores.codes.endAll('password_reset', 'u1', NOW);
    assert.is(await stores.codes.consumeLink('password_reset', H('56'), NOW), null);
  });

  if (name === 'journal') {
    test('a write is on disk once it resolves, and survives a reopen', async () => {
      const { stores, reopen } = await make();
      await stores.users.create(user('u1', 'a@example.com'));
      await stores.outbox.record({ to: 'a@example.com', subject: 'hello', text: 'body 424242', code: '424242' });
      const again = await reopen!();
      assert.is((await again.users.findById('u1'))?.email, 'a@example.com');
      assert.is((await again.outbox.list())[0]?.code, '424242');
    });
  }
  test.run();
}

const fileOnly = suite('store: journal on disk');

fileOnly('captured mail is sealed at rest: no code or body in the file', async () => {
  const dir = tempDir('svc-store');
  const stores = await openFileStores(dir, storeDepsFor(new FakeClock()));
  await stores.outbox.record({
    to: 'a@example.com',
    subject: 'Your code',
    text: 'code 987654',
    code: '987654',
    link: 'http://h/magic?t=secretlink',
  });
  await stores.close();
  const raw = readJournalText(dir, 'accounts');
  assert.match(raw, 'a@example.com');
  assert.not.match(raw, '987654');
  assert.not.match(raw, 'secretlink');
});

fileOnly('a corrupt data file is refused with its name, not silently replaced', async () => {
  const dir = tempDir('svc-store');
  writeFileSync(join(dir, 'accounts.json'), '{"users": [');
  try {
    await openFileStores(dir, storeDepsFor(new FakeClock()));
    assert.unreachable('opened a corrupt file');
  } catch (err) {
    assert.match((err as Error).message, 'accounts.json');
  }
  assert.is(readFileSync(join(dir, 'accounts.json'), 'utf8'), '{"users": [');
});

fileOnly('a leftover temp file from a crash does not matter', async () => {
  const dir = tempDir('svc-store');
  const first = await openFileStores(dir, storeDepsFor(new FakeClock()));
  await first.users.create(user('u1', 'a@example.com'));
  writeFileSync(join(dir, `.accounts.json.99999.tmp`), '{"users": [');
  const again = await openFileStores(dir, storeDepsFor(new FakeClock()));
  assert.is((await again.users.findById('u1'))?.email, 'a@example.com');
});

fileOnly.run();
