import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashCode } from '../../../daemon/auth/email-codes.js';
import { Doc } from '../../../daemon/store/doc.js';
import { openFileStores } from '../../../daemon/store/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { storeDepsFor } from '../../helpers/store-implementations.js';
import { tempDir } from '../../helpers/temp-dir.js';

/**
 * Upgrade in place: a data folder written by the previous release (one lowdb document per room,
 * written by the same Doc/DurableJsonFile code that release used) opens in the journal format on the
 * first start, nothing lost, imported exactly once, the old files kept as `*.json.pre-journal`.
 */
const T = '2026-01-15T12:00:00.000Z';
const LATER = '2026-01-15T12:05:00.000Z';
const codeKey = Buffer.alloc(32, 7);
const H = (c: string) => c.repeat(64 / c.length);

async function writeOldFolder(dir: string, clock: FakeClock) {
  const sealer = storeDepsFor(clock).sealer;
  const write = async (name: string, data: object) => {
    const doc = await Doc.file(join(dir, `${name}.json`), {});
    await doc.update((d) => Object.assign(d, data));
  };
  const session = (id: string, revoked: string | null) => ({
    id,
    user_id: 'usr_a',
    kind: 'full',
    method: ['pwd'],
    created_at: T,
    last_seen_at: T,
    expires_at: '2026-02-14T12:00:00.000Z',
    revoked_at: revoked,
    user_agent: null,
    ip: null,
  });
  await write('accounts', {
    users: [
      {
        id: 'usr_a',
        email: 'ann@example.com',
        tier: 'company',
        created_at: T,
        email_verified_at: T,
        password_hash: 'scrypt$16384$8$1$salt$hash',
        display_name: 'Ann',
      },
      {
        id: 'usr_w',
        email: null,
        tier: 'trial',
        created_at: T,
        email_verified_at: null,
        password_hash: null,
        wallet_address: '0xabc',
      },
    ],
    invites: [
      { hash: H('1a'), created_at: T, used_at: null, used_by: null },
      { hash: H('2b'), created_at: T, used_at: T, used_by: 'usr_a' },
    ],
    sessions: [session('ses_live', null), session('ses_old', '2026-01-01T00:00:00.000Z')],
    codes: [
      {
        id: 'code_live',
        purpose: 'login',
        email: 'ann@example.com',
        user_id: 'usr_a',
        code_hash: hashCode(codeKey, 'login', 'ann@example.com', '123456'),
        link_hash: H('3c'),
        tries: 0,
        created_at: T,
        expires_at: '2026-01-15T12:10:00.000Z',
        ended_at: null,
      },
    ],
  });
  await write('outbox', {
    mail: [
      {
        id: 'mail_1',
        to: 'ann@example.com',
        subject: 'an old row',
        sealed: sealer.seal(JSON.stringify({ text: 'hello', code: null, link: null })),
        created_at: T,
      },
      {
        id: 'mail_2',
        to: 'Ann@Example.com',
        sealed: sealer.seal(JSON.stringify({ subject: 'Your code', text: 'code 654321', code: '654321', link: null })),
        created_at: T,
      },
    ],
  });
  await write('companies', { companies: [{ id: 'cmp_1', name: 'Acme', owner_id: 'usr_a', created_at: T }] });
  await write('keys', {
    secret_keys: [
      {
        id: 'sk_1',
        user_id: 'usr_a',
        company_id: 'cmp_1',
        name: 'ci',
        hash: H('4d'),
        prefix: 'sk_abcdef…',
        created_at: T,
        last_used_at: null,
      },
    ],
    account_keys: [
      { id: 'ak_1', user_id: 'usr_a', hash: H('5e'), prefix: 'ak_abcdef…', created_at: T, last_used_at: null },
    ],
  });
  await write('factors', {
    challenges: [
      {
        id: 'chl_1',
        kind: 'siwe_nonce',
        subject: '0xabc',
        secret_hash: H('6f'),
        tries: 0,
        created_at: T,
        expires_at: '2026-01-15T12:10:00.000Z',
        ended_at: null,
      },
    ],
    passkeys: [
      {
        id: 'cred1',
        user_id: 'usr_a',
        public_key: 'pk',
        counter: 3,
        transports: [],
        name: 'laptop',
        created_at: T,
        last_used_at: null,
      },
    ],
    wallets: [{ address: '0xabc', user_id: 'usr_w', created_at: T }],
  });
}

const NAMES = ['accounts', 'outbox', 'companies', 'keys', 'factors'];

test('a folder of the previous release is imported on the first start, nothing lost; the old files become backups', async () => {
  const dir = tempDir('svc-upgrade');
  const clock = new FakeClock(Date.parse(T));
  await writeOldFolder(dir, clock);
  const stores = await openFileStores(dir, storeDepsFor(clock));
  for (const name of NAMES) {
    assert.not.ok(existsSync(join(dir, `${name}.json`)), `${name}.json moved away`);
    assert.ok(existsSync(join(dir, `${name}.json.pre-journal`)), `${name}.json.pre-journal kept`);
  }
  assert.is((await stores.users.findByEmail('ANN@example.com'))?.display_name, 'Ann');
  assert.is(await stores.wallets.findUserId('0xABC'), 'usr_w');
  assert.is((await stores.invites.find(H('2b')))?.used_by, 'usr_a');
  assert.equal(
    (await stores.sessions.listActive('usr_a', LATER)).map((s) => s.id),
    ['ses_live'],
  );
  const code = await stores.codes.consumeCode(
    'login',
    'ann@example.com',
    hashCode(codeKey, 'login', 'ann@example.com', '123456'),
    LATER,
    5,
  );
  assert.ok(code.ok && code.record.id === 'code_live', 'a live code still works');
  assert.equal(
    (await stores.outbox.list({ to: 'ann@example.com' })).map((m) => [m.subject, m.code]),
    [
      ['an old row', null],
      ['Your code', '654321'],
    ],
  );
  assert.equal(
    (await stores.companies.listByOwner('usr_a')).map((c) => c.name),
    ['Acme'],
  );
  assert.is((await stores.keys.findSecretKeyByHash(H('4d')))?.id, 'sk_1');
  assert.is((await stores.keys.accountKeyOf('usr_a'))?.id, 'ak_1');
  assert.is((await stores.passkeys.find('cred1'))?.counter, 3);
  assert.ok(await stores.challenges.consume('siwe_nonce', H('6f'), LATER));
  await stores.close();
});

test('imported exactly once: a restart, and a crash between the import and the rename, change nothing', async () => {
  const dir = tempDir('svc-upgrade');
  const clock = new FakeClock(Date.parse(T));
  await writeOldFolder(dir, clock);
  const first = await openFileStores(dir, storeDepsFor(clock));
  assert.is(await first.invites.consume(H('1a'), LATER, 'usr_new'), true);
  await first.outbox.record({ to: 'ann@example.com', subject: 'new', text: 'after the upgrade' });
  await first.close();
  // As if the daemon died after the import was durable but before the old files were renamed.
  for (const name of NAMES) copyFileSync(join(dir, `${name}.json.pre-journal`), join(dir, `${name}.json`));
  const again = await openFileStores(dir, storeDepsFor(clock));
  assert.is((await again.invites.find(H('1a')))?.used_by, 'usr_new', 'not overwritten by a second import');
  assert.equal((await again.outbox.list()).map((m) => m.id).length, 3, 'no row imported twice');
  for (const name of NAMES) assert.not.ok(existsSync(join(dir, `${name}.json`)), `${name}.json renamed again`);
  await again.close();
  const third = await openFileStores(dir, storeDepsFor(clock));
  assert.is((await third.users.findById('usr_a'))?.email, 'ann@example.com');
  await third.close();
  assert.equal(
    readdirSync(dir).filter((f) => f.endsWith('.json')),
    [],
  );
});

test('a damaged old file is refused with its name and left as it was', async () => {
  const dir = tempDir('svc-upgrade');
  await writeOldFolder(dir, new FakeClock(Date.parse(T)));
  const { writeFileSync, readFileSync } = await import('node:fs');
  writeFileSync(join(dir, 'keys.json'), '{"secret_keys": [');
  try {
    await openFileStores(dir, storeDepsFor(new FakeClock()));
    assert.unreachable('opened a damaged file');
  } catch (err) {
    assert.match((err as Error).message, 'keys.json');
  }
  assert.is(readFileSync(join(dir, 'keys.json'), 'utf8'), '{"secret_keys": [');
});

test.run();
