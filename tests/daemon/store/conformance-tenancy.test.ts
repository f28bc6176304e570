import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { StoreConflict } from '../../../daemon/store/types.js';
import { storeImplementations } from '../../helpers/store-implementations.js';

/** The Company and key stores, against every implementation of the storage seam. */

for (const [name, make] of Object.entries(storeImplementations)) {
  const test = suite(`store conformance, Companies and keys: ${name}`);

  test('companies: create, find, list by owner; a name is unique per owner, case-insensitively, even under races', async () => {
    const { stores, reopen } = await make();
    const co = (id: string, owner: string, name: string) => ({
      id,
      owner_id: owner,
      name,
      created_at: '2026-01-01T00:00:00.000Z',
    });
    await stores.companies.create(co('c1', 'u1', 'Acme'));
    await stores.companies.create(co('c2', 'u2', 'Acme'));
    const racing = await Promise.allSettled(
      [3, 4, 5].map((i) => stores.companies.create(co(`c${i}`, 'u1', 'acme two'))),
    );
    assert.is(racing.filter((r) => r.status === 'fulfilled').length, 1);
    assert.ok(racing.every((r) => r.status === 'fulfilled' || r.reason instanceof StoreConflict));
    try {
      await stores.companies.create(co('c9', 'u1', 'ACME'));
      assert.unreachable('duplicate name accepted');
    } catch (err) {
      assert.instance(err, StoreConflict);
    }
    assert.is((await stores.companies.findById('c2'))?.owner_id, 'u2');
    assert.is(await stores.companies.findById('nope'), undefined);
    assert.equal(
      (await stores.companies.listByOwner('u1')).map((c) => c.name),
      ['Acme', 'acme two'],
    );
    if (reopen)
      assert.equal(
        (await (await reopen()).companies.listByOwner('u2')).map((c) => c.id),
        ['c2'],
      );
  });

  test('keys: secret keys by hash, list per user, revoke only by the owner; one account key per user, replaced atomically', async () => {
    const { stores, reopen } = await make();
    const sk = (id: string, user: string, hash: string) => ({
      id,
      user_id: user,
      company_id: 'c1',
      name: id,
      hash,
      prefix: 'sk_abcdef…',
      created_at: 't',
      last_used_at: null,
    });
    await stores.keys.addSecretKey(sk('k1', 'u1', 'h1'));
    await stores.keys.addSecretKey(sk('k2', 'u1', 'h2'));
    await stores.keys.addSecretKey(sk('k3', 'u2', 'h3'));
    assert.is((await stores.keys.findSecretKeyByHash('h2'))?.id, 'k2');
    assert.equal(
      (await stores.keys.listSecretKeys('u1')).map((k) => k.id),
      ['k1', 'k2'],
    );
    assert.is(await stores.keys.revokeSecretKey('k3', 'u1'), false);
    assert.is((await stores.keys.findSecretKeyByHash('h3'))?.id, 'k3');
    assert.is(await stores.keys.revokeSecretKey('k1', 'u1'), true);
    assert.is(await stores.keys.findSecretKeyByHash('h1'), undefined);
    assert.is(await stores.keys.revokeSecretKey('k1', 'u1'), false);
    await stores.keys.touch('secret', 'k2', '2026-01-01T00:01:00.000Z');
    assert.is((await stores.keys.findSecretKeyByHash('h2'))?.last_used_at, '2026-01-01T00:01:00.000Z');

    const ak = (id: string, hash: string) => ({
      id,
      user_id: 'u1',
      hash,
      prefix: 'ak_abcdef…',
      created_at: 't',
      last_used_at: null,
    });
    assert.equal(await stores.keys.setAccountKey(ak('a1', 'ha1')), { rotated: false });
    assert.equal(await stores.keys.setAccountKey(ak('a2', 'ha2')), { rotated: true });
    assert.is(await stores.keys.findAccountKeyByHash('ha1'), undefined);
    assert.is((await stores.keys.findAccountKeyByHash('ha2'))?.id, 'a2');
    assert.is((await stores.keys.accountKeyOf('u1'))?.id, 'a2');
    assert.is(await stores.keys.accountKeyOf('u2'), undefined);
    if (reopen) {
      const again = await reopen();
      assert.is((await again.keys.findSecretKeyByHash('h2'))?.last_used_at, '2026-01-01T00:01:00.000Z');
      assert.is(await again.keys.findSecretKeyByHash('h1'), undefined);
      assert.is((await again.keys.findAccountKeyByHash('ha2'))?.id, 'a2');
    }
  });

  test('keys: a record without the access fields reads as before; touch keeps the address; rotation marks the old key once', async () => {
    const { stores, reopen } = await make();
    const sk = (id: string, hash: string, extra: object = {}) => ({
      id,
      user_id: 'u1',
      company_id: 'c1',
      name: 'ci',
      hash,
      prefix: 'sk_abcdef…',
      created_at: '2026-01-01T00:00:00.000Z',
      last_used_at: null,
      ...extra,
    });
    // A key as the previous release wrote it: no scopes, expiry or rotation fields at all.
    await stores.keys.addSecretKey(sk('old', 'h-old'));
    const legacy = await stores.keys.findSecretKeyByHash('h-old');
    assert.is(legacy?.scopes ?? null, null);
    assert.is(legacy?.expires_at ?? null, null);
    await stores.keys.touch('secret', 'old', '2026-01-01T00:05:00.000Z', '203.0.113.7');
    const touched = await stores.keys.findSecretKeyWithOwner('h-old');
    assert.is(touched?.key.last_used_ip, '203.0.113.7');

    const scoped = { scopes: ['events:read'], expires_at: '2026-02-01T00:00:00.000Z' };
    await stores.keys.addSecretKey(sk('k1', 'h1', scoped));
    assert.equal((await stores.keys.findSecretKeyByHash('h1'))?.scopes, ['events:read']);
    const fresh = sk('k2', 'h2', scoped);
    assert.equal(await stores.keys.rotateSecretKey('k1', 'u2', fresh, '2026-01-02T00:00:00.000Z'), {
      ok: false,
      reason: 'not_found',
    });
    assert.is(await stores.keys.findSecretKeyByHash('h2'), undefined, "another user's rotation adds nothing");
    const racing = await Promise.all(
      ['k2', 'k3'].map((id) =>
        stores.keys.rotateSecretKey('k1', 'u1', sk(id, `h-${id}`, scoped), '2026-01-02T00:00:00.000Z'),
      ),
    );
    assert.is(racing.filter((r) => r.ok).length, 1, 'a key is replaced once');
    assert.ok(racing.some((r) => !r.ok && r.reason === 'already_rotated'));
    const old = await stores.keys.findSecretKeyByHash('h1');
    assert.is(old?.retires_at, '2026-01-02T00:00:00.000Z');
    assert.ok(old?.replaced_by === 'k2' || old?.replaced_by === 'k3');
    assert.is((await stores.keys.listSecretKeys('u1')).length, 3);
    if (reopen) {
      const again = await reopen();
      assert.is((await again.keys.findSecretKeyByHash('h1'))?.retires_at, '2026-01-02T00:00:00.000Z');
      assert.is((await again.keys.findSecretKeyByHash('h-old'))?.last_used_ip, '203.0.113.7');
    }
  });

  test.run();
}
