import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { storeImplementations } from '../../helpers/store-implementations.js';

/**
 * The lookups every authenticated request makes (a session with its user, a secret key with its
 * user and Company) and the use stamps, against every implementation of the storage seam; through
 * `reopen` (a second pool on PostgreSQL, as another daemon) what one side changed is seen at once.
 */
const user = (id: string) => ({ id, email: `${id}@example.com`, tier: 'trial' as const, created_at: 't' });
const session = (id: string, userId: string) => ({
  id,
  user_id: userId,
  kind: 'full' as const,
  method: ['pwd'],
  created_at: '2026-01-01T00:00:00.000Z',
  last_seen_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-01-02T00:00:00.000Z',
  revoked_at: null,
  user_agent: null,
  ip: null,
});
const sk = (id: string, userId: string, companyId: string, hash: string) => ({
  id,
  user_id: userId,
  company_id: companyId,
  name: `key \u0000 ${id}`,
  hash,
  prefix: 'sk_abcdef…',
  created_at: 't',
  last_used_at: null,
});

for (const [name, make] of Object.entries(storeImplementations)) {
  const test = suite(`store conformance, callers: ${name}`);

  test('sessions.findWithUser: the session and its user together; a revoked one still names its user', async () => {
    const { stores, reopen } = await make();
    await stores.users.create(user('u1'));
    await stores.sessions.create(session('s1', 'u1'));
    await stores.sessions.create(session('s2', 'gone'));
    const found = await stores.sessions.findWithUser('s1');
    assert.is(found?.session.id, 's1');
    assert.is(found?.user?.email, 'u1@example.com');
    assert.equal(await stores.sessions.findWithUser('s2'), {
      session: await stores.sessions.find('s2'),
      user: undefined,
    });
    assert.is(await stores.sessions.findWithUser('nope'), undefined);
    assert.is(await stores.sessions.revoke('s1', 'u1', '2026-01-01T01:00:00.000Z'), true);
    // The stamp after the revocation keeps it: only last_seen_at changes.
    await stores.sessions.touch('s1', '2026-01-01T02:00:00.000Z');
    await stores.sessions.touch('nope', '2026-01-01T02:00:00.000Z');
    assert.is(await stores.sessions.find('nope'), undefined);
    const after = await (reopen ? await reopen() : stores).sessions.findWithUser('s1');
    assert.is(after?.session.revoked_at, '2026-01-01T01:00:00.000Z');
    assert.is(after?.session.last_seen_at, '2026-01-01T02:00:00.000Z');
    assert.is(after?.user?.id, 'u1', 'a revoked session still names its user');
    assert.equal(after?.session.method, ['pwd']);
  });

  test('keys.findSecretKeyWithOwner: the key, its user and Company together; a revoked key stays gone', async () => {
    const { stores, reopen } = await make();
    await stores.users.create(user('u1'));
    await stores.companies.create({ id: 'c1', owner_id: 'u1', name: 'Acme', created_at: 't' });
    await stores.keys.addSecretKey(sk('k1', 'u1', 'c1', 'h1'));
    await stores.keys.addSecretKey(sk('k2', 'u1', 'gone', 'h2'));
    const found = await stores.keys.findSecretKeyWithOwner('h1');
    assert.is(found?.key.id, 'k1');
    assert.is(found?.key.name, 'key \u0000 k1');
    assert.is(found?.user?.id, 'u1');
    assert.is(found?.company?.name, 'Acme');
    const orphan = await stores.keys.findSecretKeyWithOwner('h2');
    assert.is(orphan?.user?.id, 'u1');
    assert.is(orphan?.company, undefined);
    assert.is(await stores.keys.findSecretKeyWithOwner('nope'), undefined);
    await stores.keys.touch('secret', 'k1', '2026-01-01T00:01:00.000Z');
    assert.is(await stores.keys.revokeSecretKey('k2', 'u1'), true);
    await stores.keys.touch('secret', 'k2', '2026-01-01T00:02:00.000Z');
    const check = reopen ? await reopen() : stores;
    const seen = await check.keys.findSecretKeyWithOwner('h1');
    assert.is(seen?.key.last_used_at, '2026-01-01T00:01:00.000Z');
    assert.is(seen?.key.name, 'key \u0000 k1', 'the stamp keeps the rest of the record');
    assert.is(await check.keys.findSecretKeyWithOwner('h2'), undefined, 'a stamp does not bring a deleted key back');
  });

  test.run();
}
