import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { createChannel, rotateChannelSecret, secretsOf } from '../../../daemon/company/channels/channel-secrets.js';
import { cryptoRandom } from '../../../daemon/random.js';
import { createSealer } from '../../../daemon/store/sealer.js';
import { StoreConflict, type ChannelStore } from '../../../daemon/store/types.js';
import { readJournalText } from '../../helpers/journal-text.js';
import { runtimeStoreImplementations } from '../../helpers/store-implementations.js';

/** The channel store's conformance suite, against memory and the Company journal. */
type Factory = () => Promise<{ store: ChannelStore; dir?: string; reopen?: () => Promise<ChannelStore> }>;
const implementations: Record<string, Factory> = Object.fromEntries(
  Object.entries(runtimeStoreImplementations).map(([name, make]) => [
    name,
    async () => {
      const { stores, dir, reopen } = await make();
      return { store: stores.channels, dir, reopen: reopen && (async () => (await reopen()).channels) };
    },
  ]),
);
const sealer = createSealer(randomBytes(32));
const now = Date.parse('2026-01-15T12:00:00Z');
const make = (name: string) =>
  createChannel(name, { random: cryptoRandom, sealer, nowIso: new Date(now).toISOString() });

for (const [name, open] of Object.entries(implementations)) {
  const test = suite(`channel store conformance: ${name}`);

  test('create, get, list; a taken name conflicts, even concurrently', async () => {
    const { store } = await open();
    await store.create(make('ci').record);
    assert.is((await store.get('ci'))?.name, 'ci');
    const results = await Promise.allSettled([store.create(make('chat').record), store.create(make('chat').record)]);
    assert.is(results.filter((r) => r.status === 'fulfilled').length, 1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.instance(failed.reason, StoreConflict);
    assert.is((failed.reason as StoreConflict).reason, 'channel_exists');
    assert.equal(
      (await store.list()).map((c) => c.name),
      ['ci', 'chat'],
    );
  });

  test('rotation replaces the record; delete removes it; the secret is never on disk in plain', async () => {
    let { store, dir, reopen } = await open();
    const { record, secret } = make('ci');
    await store.create(record);
    const rotated = rotateChannelSecret(record, { random: cryptoRandom, sealer, nowMs: now });
    assert.ok(await store.replace(rotated.record));
    assert.not.ok(await store.replace(make('nope').record));
    assert.equal(secretsOf((await store.get('ci'))!, sealer, now), [rotated.secret, secret]);
    if (dir && reopen) {
      const raw = readJournalText(dir, 'runtime');
      assert.not.ok(raw.includes(secret.slice(6)) || raw.includes(rotated.secret.slice(6)));
      store = await reopen();
      assert.equal(secretsOf((await store.get('ci'))!, sealer, now), [rotated.secret, secret]);
    }
    assert.ok(await store.delete('ci'));
    assert.not.ok(await store.delete('ci'));
    assert.is(await store.get('ci'), undefined);
  });

  test.run();
}
