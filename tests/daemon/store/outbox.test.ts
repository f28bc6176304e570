import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createIdGenerator } from '../../../daemon/ids.js';
import { cryptoRandom } from '../../../daemon/random.js';
import { createMemoryStores, openFileStores } from '../../../daemon/store/index.js';
import { createSealer } from '../../../daemon/store/sealer.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { readJournalText } from '../../helpers/journal-text.js';
import { tempDir } from '../../helpers/temp-dir.js';

const open = (dir: string, outboxMax: number) => {
  const clock = new FakeClock();
  return openFileStores(dir, {
    clock,
    ids: createIdGenerator(clock, cryptoRandom),
    sealer: createSealer(key),
    outboxMax,
  });
};
const key = randomBytes(32);

test('past the cap the oldest messages go, and reads (served from the opened-message cache) follow', async () => {
  const stores = await open(tempDir('svc-store'), 3);
  for (let i = 1; i <= 5; i++) {
    await stores.outbox.record({ to: 'a@example.com', subject: `m${i}`, text: `code ${i}`, code: `00000${i}` });
    await stores.outbox.list();
  }
  const mail = await stores.outbox.list();
  assert.equal(
    mail.map((m) => m.subject),
    ['m3', 'm4', 'm5'],
  );
  assert.equal(
    mail.map((m) => m.code),
    ['000003', '000004', '000005'],
  );
});

test('?to= reads (through the recipient index) always equal a filter over the whole outbox, across the cap', async () => {
  const clock = new FakeClock();
  const stores = await createMemoryStores({
    clock,
    ids: createIdGenerator(clock, cryptoRandom),
    sealer: createSealer(key),
    outboxMax: 20,
  });
  const addresses = [
    'ada@example.com',
    'Ada@Example.com',
    'bob@example.com',
    'BOB@EXAMPLE.COM',
    'cy@example.com',
    'dee@example.com',
  ];
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let i = 0; i < 120; i++) {
    await stores.outbox.record({ to: addresses[next(addresses.length)]!, subject: `m${i}`, text: 't' });
    if (i % 7 === 0 || i > 100) {
      const all = await stores.outbox.list();
      assert.ok(all.length <= 20);
      for (const address of [...addresses, 'nobody@example.com']) {
        const expected = all.filter((m) => m.to.toLowerCase() === address.toLowerCase()).map((m) => m.id);
        assert.equal(
          (await stores.outbox.list({ to: address })).map((m) => m.id),
          expected,
          `${address} after ${i}`,
        );
        const since = all[Math.floor(all.length / 2)]!.id;
        assert.equal(
          (await stores.outbox.list({ to: address, sinceId: since })).map((m) => m.id),
          expected.filter((id) => id > since),
        );
      }
    }
  }
});

test('a caller changing a listed message does not change what the next read returns', async () => {
  const stores = await open(tempDir('svc-store'), 10);
  await stores.outbox.record({ to: 'a@example.com', subject: 's', text: 't', code: '123456' });
  const [first] = await stores.outbox.list();
  first!.code = 'tampered';
  first!.text = 'tampered';
  const [again] = await stores.outbox.list();
  assert.is(again!.code, '123456');
  assert.is(again!.text, 't');
});

test('on disk the bodies stay sealed: no code, text or link in the outbox file', async () => {
  const dir = tempDir('svc-store');
  const stores = await open(dir, 10);
  await stores.outbox.record({
    to: 'a@example.com',
    subject: 'Your code',
    text: 'Your code is 834201',
    code: '834201',
    link: 'http://x/magic?token=SECRETLINK',
  });
  await stores.outbox.list();
  await stores.close();
  const file = readJournalText(dir, 'accounts');
  assert.ok(file.includes('a@example.com'), 'the row is in the journal');
  assert.not.ok(file.includes('834201'));
  assert.not.ok(file.includes('SECRETLINK'));
  const reopened = await open(dir, 10);
  assert.is((await reopened.outbox.list())[0]!.code, '834201', 'the same key opens it again after a restart');
});

test.run();
