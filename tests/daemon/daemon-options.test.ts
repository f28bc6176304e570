import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../daemon/daemon-options.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Team mode's settings (docs/deploy.md): the database URL, the public URL and the proxy switch. */
const data = tempDir('svc-data');

test('--database wins over SVC_DATABASE_URL; a URL that is not postgres:// is refused without its password', () => {
  assert.is(resolveConfig({ data }, {}).databaseUrl, undefined);
  assert.is(resolveConfig({ data }, { SVC_DATABASE_URL: 'postgres://a@db/svc' }).databaseUrl, 'postgres://a@db/svc');
  const both = resolveConfig({ data, database: 'postgresql://b@db/svc' }, { SVC_DATABASE_URL: 'postgres://a@db/svc' });
  assert.is(both.databaseUrl, 'postgresql://b@db/svc');
  assert.throws(
    () => resolveConfig({ data, database: 'mysql://svc:hunter2@db/svc' }, {}),
    (err: Error) =>
      /^invalid database URL mysql:\/\/svc:\*\*\*@db\/svc/.test(err.message) && !/hunter2/.test(err.message),
  );
});

test('SVC_AUDIT_RETENTION_DAYS: whole days, 0 keeps every entry; anything else stops the start', () => {
  assert.is(resolveConfig({ data }, {}).auditRetentionDays, undefined);
  assert.is(resolveConfig({ data }, { SVC_AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays, 30);
  assert.is(resolveConfig({ data }, { SVC_AUDIT_RETENTION_DAYS: '0' }).auditRetentionDays, 0);
  for (const bad of ['', '-1', '1.5', '30d', 'forever'])
    assert.throws(() => resolveConfig({ data }, { SVC_AUDIT_RETENTION_DAYS: bad }), /invalid SVC_AUDIT_RETENTION_DAYS/);
});

test('SVC_PUBLIC_URL sets where links point; SVC_TRUST_PROXY=1 trusts the proxy, anything but 1/0 is refused', () => {
  const config = resolveConfig({ data }, { SVC_PUBLIC_URL: 'https://svc.example.com/', SVC_TRUST_PROXY: '1' });
  assert.equal([config.publicUrl, config.trustProxy], ['https://svc.example.com', true]);
  assert.is(resolveConfig({ data }, {}).trustProxy, false);
  assert.is(resolveConfig({ data }, { SVC_TRUST_PROXY: '0' }).trustProxy, false);
  assert.throws(() => resolveConfig({ data }, { SVC_TRUST_PROXY: 'yes' }), /invalid SVC_TRUST_PROXY yes/);
  assert.throws(() => resolveConfig({ data }, { SVC_PUBLIC_URL: 'svc.example.com' }), /invalid SVC_PUBLIC_URL/);
  assert.throws(() => resolveConfig({ data }, { SVC_PUBLIC_URL: 'ftp://svc.example.com' }), /invalid SVC_PUBLIC_URL/);
});

test('SVC_TEST_SCRYPT_N takes a power of two from 1024 to the default, with its opt-in; anything else stops the start', () => {
  const allow = { SVC_ALLOW_TEST_SETTINGS: '1' };
  assert.is(resolveConfig({ data }, { ...allow, SVC_TEST_SCRYPT_N: '1024' }).auth.passwordHash.N, 1024);
  assert.is(resolveConfig({ data }, {}).auth.passwordHash.N, 2 ** 17, 'the default cost when unset');
  assert.is(resolveConfig({ data }, allow).auth.passwordHash.N, 2 ** 17, 'the opt-in alone changes nothing');
  for (const bad of ['abc', '1000', '512', String(2 ** 18), '-1024'])
    assert.throws(
      () => resolveConfig({ data }, { ...allow, SVC_TEST_SCRYPT_N: bad }),
      /invalid SVC_TEST_SCRYPT_N/,
      bad,
    );
});

test('a test setting without SVC_ALLOW_TEST_SETTINGS=1 stops the start with one line naming it', () => {
  for (const env of [
    { SVC_TEST_SCRYPT_N: '1024' },
    { SVC_TEST_CLOCK_FILE: '/tmp/offset' },
    { SVC_TEST_SCRYPT_N: '1024', SVC_ALLOW_TEST_SETTINGS: '' },
  ]) {
    const name = Object.keys(env)[0]!;
    assert.throws(
      () => resolveConfig({ data }, env),
      (err: Error) =>
        err.message.startsWith(`${name} is a test setting`) &&
        err.message.includes('SVC_ALLOW_TEST_SETTINGS=1') &&
        !err.message.includes('\n'),
      name,
    );
  }
  assert.throws(
    () => resolveConfig({ data }, { SVC_TEST_SCRYPT_N: '1024', SVC_ALLOW_TEST_SETTINGS: 'yes' }),
    /invalid SVC_ALLOW_TEST_SETTINGS yes: use 1/,
  );
});

test('--max-key-lifetime wins over SVC_MAX_KEY_LIFETIME; a duration in s, m, h, d, w or seconds; anything else stops the start', () => {
  assert.is(resolveConfig({ data }, {}).maxKeyLifetimeSeconds, undefined);
  assert.is(resolveConfig({ data }, { SVC_MAX_KEY_LIFETIME: '90d' }).maxKeyLifetimeSeconds, 90 * 86_400);
  assert.is(
    resolveConfig({ data, maxKeyLifetime: '24h' }, { SVC_MAX_KEY_LIFETIME: '90d' }).maxKeyLifetimeSeconds,
    86_400,
  );
  assert.is(resolveConfig({ data, maxKeyLifetime: '3600' }, {}).maxKeyLifetimeSeconds, 3600);
  for (const bad of ['0', '90 days', '-1d', '1y', '1.5d'])
    assert.throws(() => resolveConfig({ data, maxKeyLifetime: bad }, {}), /invalid --max-key-lifetime/);
});

test.run();
