import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { OAuthRecord } from '../../../daemon/store/types.js';
import { storeImplementations } from '../../helpers/store-implementations.js';

/**
 * The authorization server's records, the same on every implementation: found until they expire
 * (by the injected clock), single use decided by the store (of concurrent consumes exactly one
 * wins), a grant removed with all it issued, and kept across a restart on the durable ones.
 */
const hash = (c: string) => c.repeat(64);
const record = (over: Partial<OAuthRecord> = {}): OAuthRecord => ({
  kind: 'AuthorizationCode',
  id_hash: hash('a'),
  payload: { clientId: 'c1', grantId: 'g1' },
  grant_id: 'g1',
  uid: null,
  expires_at: '2026-01-15T12:01:00.000Z',
  consumed_at: null,
  ...over,
});
const NOW = '2026-01-15T12:00:00.000Z';

for (const [name, open] of Object.entries(storeImplementations)) {
  const test = suite(`oauth records (${name})`);

  test('found until it expires; then gone for every reader', async () => {
    const { stores } = await open();
    await stores.oauth.put(record(), NOW);
    assert.is((await stores.oauth.find('AuthorizationCode', hash('a'), NOW))?.payload.clientId, 'c1');
    assert.is(await stores.oauth.find('AuthorizationCode', hash('a'), '2026-01-15T12:01:00.000Z'), undefined);
    assert.is(await stores.oauth.find('AccessToken', hash('a'), NOW), undefined, 'kinds are apart');
    await stores.close();
  });

  test('consume is single use, even for concurrent callers', async () => {
    const { stores } = await open();
    await stores.oauth.put(record(), NOW);
    const wins = await Promise.all(
      Array.from({ length: 8 }, () => stores.oauth.consume('AuthorizationCode', hash('a'), NOW)),
    );
    assert.is(wins.filter(Boolean).length, 1);
    const after = await stores.oauth.find('AuthorizationCode', hash('a'), NOW);
    assert.is(after?.consumed_at, NOW);
    assert.ok(after?.payload.consumed, 'the library sees it consumed');
    assert.is(await stores.oauth.consume('AuthorizationCode', hash('f'), NOW), false, 'nothing to consume');
    await stores.close();
  });

  test('removing a grant removes everything filed under it, and nothing else', async () => {
    const { stores } = await open();
    await stores.oauth.put(record({ kind: 'Grant', id_hash: hash('b'), expires_at: null }), NOW);
    await stores.oauth.put(record({ kind: 'AccessToken', id_hash: hash('c') }), NOW);
    await stores.oauth.put(record({ kind: 'AccessToken', id_hash: hash('d'), grant_id: 'g2' }), NOW);
    await stores.oauth.removeGrant('g1');
    assert.is(await stores.oauth.find('Grant', hash('b'), NOW), undefined);
    assert.is(await stores.oauth.find('AccessToken', hash('c'), NOW), undefined);
    assert.ok(await stores.oauth.find('AccessToken', hash('d'), NOW));
    await stores.close();
  });

  test('found by uid; removed by id', async () => {
    const { stores } = await open();
    await stores.oauth.put(record({ kind: 'Interaction', uid: 'u-1', grant_id: null }), NOW);
    assert.ok(await stores.oauth.findByUid('Interaction', 'u-1', NOW));
    await stores.oauth.remove('Interaction', hash('a'));
    assert.is(await stores.oauth.findByUid('Interaction', 'u-1', NOW), undefined);
    await stores.close();
  });

  test("a user's grants: listed by uid, stamped only while they live, removed together", async () => {
    const { stores } = await open();
    const binding = (grant: string, user: string, h: string) =>
      record({ kind: 'CompanyBinding', id_hash: hash(h), grant_id: grant, uid: user, payload: { grantId: grant } });
    await stores.oauth.put(binding('g1', 'usr_1', 'b'), NOW);
    await stores.oauth.put(binding('g2', 'usr_1', 'c'), NOW);
    await stores.oauth.put(binding('g3', 'usr_2', 'd'), NOW);
    await stores.oauth.put(record({ kind: 'AccessToken', id_hash: hash('e'), grant_id: 'g2' }), NOW);
    await stores.oauth.put(record({ kind: 'AccessToken', id_hash: hash('f'), grant_id: 'g3' }), NOW);
    const listed = await stores.oauth.listByUid('CompanyBinding', 'usr_1', NOW);
    assert.equal(listed.map((r) => r.grant_id).sort(), ['g1', 'g2']);
    assert.equal(await stores.oauth.listByUid('CompanyBinding', 'usr_1', '2026-01-15T12:01:00.000Z'), []);

    await stores.oauth.stamp('CompanyBinding', hash('b'), 'last_used_at', NOW);
    assert.is((await stores.oauth.find('CompanyBinding', hash('b'), NOW))?.payload.last_used_at, NOW);
    assert.is((await stores.oauth.find('CompanyBinding', hash('b'), NOW))?.payload.grantId, 'g1');

    await stores.oauth.removeGrantsOfUser('usr_1');
    assert.equal(await stores.oauth.listByUid('CompanyBinding', 'usr_1', NOW), []);
    assert.is(await stores.oauth.find('AccessToken', hash('e'), NOW), undefined);
    assert.ok(await stores.oauth.find('AccessToken', hash('f'), NOW), "another user's grant stays");
    assert.is((await stores.oauth.listByUid('CompanyBinding', 'usr_2', NOW)).length, 1);
    // A stamp after the grant is gone brings nothing back.
    await stores.oauth.stamp('CompanyBinding', hash('b'), 'last_used_at', NOW);
    assert.is(await stores.oauth.find('CompanyBinding', hash('b'), NOW), undefined);
    await stores.close();
  });

  test('kept across a restart (durable stores)', async () => {
    const { stores, reopen } = await open();
    await stores.oauth.put(record({ expires_at: null }), NOW);
    const again = reopen ? await reopen() : stores;
    assert.ok(await again.oauth.find('AuthorizationCode', hash('a'), NOW));
    await again.close();
  });

  test.run();
}
