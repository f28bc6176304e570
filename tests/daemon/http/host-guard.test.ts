import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp } from '../../helpers/test-app.js';
import { resolveConfig } from '../../../daemon/main.js';
import { tempDir } from '../../helpers/temp-dir.js';

const get = (t: Awaited<ReturnType<typeof createTestApp>>, url: string, host: string) =>
  t.request({ method: 'GET', url, headers: { host } });

// Every route checks Host, not only /api/mcp: otherwise a DNS-rebinding page could reach every
// unauthenticated route of a loopback daemon (signup, login, healthz…).
test('a loopback daemon answers localhost, 127.0.0.1 and [::1] (any port) and refuses other Host names with 421 naming the Host', async () => {
  const t = await createTestApp({ config: { host: '127.0.0.1' } });
  for (const host of [
    'localhost',
    'localhost:7878',
    '127.0.0.1:7878',
    '127.0.0.1',
    '[::1]:7878',
    '[::1]',
    'LOCALHOST:1',
  ]) {
    assert.is((await get(t, '/healthz', host)).status, 200, host);
  }
  for (const url of ['/healthz', '/api/auth/signup', '/api/agents', '/api/mcp']) {
    const res = await get(t, url, 'evil.example:7878');
    assert.is(res.status, 421, url);
    assert.is(res.body.code, 'host_not_allowed');
    assert.match(res.body.error, "Host 'evil.example:7878'");
    assert.match(res.body.error, /--allowed-hosts/);
  }
  assert.is((await get(t, '/healthz', '127.0.0.1.evil.example')).status, 421);
  assert.is((await get(t, '/healthz', '192.168.1.20')).status, 421, 'a loopback daemon has no LAN address');
  const post = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    headers: { host: 'rebind.example', 'content-type': 'application/json' },
    payload: '{}',
  });
  assert.is(post.status, 421, 'refused before the body is read or a route runs');
});

test('the allow-list (and the public URL host) add names; a non-loopback bind also takes IP literals', async () => {
  const t = await createTestApp({
    config: {
      host: '0.0.0.0',
      allowedHosts: ['svc.example.com', '.corp.example'],
      publicUrl: 'https://public.example',
    },
  });
  for (const host of [
    'svc.example.com',
    'svc.example.com:443',
    'a.corp.example',
    'corp.example',
    'public.example',
    '10.0.0.5:7878',
    '[fe80::1]:7878',
    'localhost',
  ]) {
    assert.is((await get(t, '/healthz', host)).status, 200, host);
  }
  const res = await get(t, '/healthz', 'other.example');
  assert.is(res.status, 421);
  assert.match(res.body.error, /svc\.example\.com/);
  const open = await createTestApp({ config: { allowedHosts: ['*'] } });
  assert.is((await get(open, '/healthz', 'anything.example')).status, 200, '* switches the check off');
});

// A suffix rule is easy to get wrong in a way that still passes a test of an unrelated name: with
// endsWith('corp.example') instead of '.corp.example', evilcorp.example gets in.
test('an allow-list domain (.corp.example) is the name and its sub-domains only; case, a port and the root dot do not matter', async () => {
  const t = await createTestApp({ config: { host: '127.0.0.1', allowedHosts: ['.corp.example'] } });
  for (const host of [
    'corp.example',
    'a.corp.example',
    'deep.a.corp.example',
    'A.Corp.EXAMPLE',
    'CORP.EXAMPLE:8443',
    'a.corp.example:7878',
    'a.corp.example.',
    'corp.example.:7878',
  ]) {
    assert.is((await get(t, '/healthz', host)).status, 200, host);
  }
  for (const host of [
    'evilcorp.example',
    'EVILCORP.EXAMPLE:443',
    'xcorp.example',
    '-corp.example',
    'corp.example.evil.test',
    'a.corp.example.evil.test:7878',
    'corp.examples',
    'corp.example..',
    'example',
    'evil.example/.corp.example',
    'evil.example@a.corp.example',
    'a..corp.example',
  ]) {
    assert.is((await get(t, '/healthz', host)).status, 421, host);
  }
});

test('an allow-list name written with its root dot or in capitals still matches', async () => {
  const t = await createTestApp({
    config: { host: '127.0.0.1', allowedHosts: ['SVC.Example.com.', '.Corp.Example.'] },
  });
  for (const host of ['svc.example.com', 'a.corp.example', 'corp.example:1'])
    assert.is((await get(t, '/healthz', host)).status, 200, host);
  assert.is((await get(t, '/healthz', 'evilcorp.example')).status, 421);
});

test('a bracketed IPv6 Host is the literal and an optional port, nothing after it', async () => {
  const t = await createTestApp({ config: { host: '127.0.0.1' } });
  for (const host of ['[::1]', '[::1]:7878', '[::1]:']) assert.is((await get(t, '/healthz', host)).status, 200, host);
  for (const host of ['[::1].evil.example', '[::1]evil.example', '[::1]:7878.evil.example'])
    assert.is((await get(t, '/healthz', host)).status, 421, host);
});

test('--allowed-hosts wins over SVC_ALLOWED_HOSTS, which is a comma-separated list', () => {
  const data = tempDir('svc-data');
  assert.equal(resolveConfig({ data }, { SVC_ALLOWED_HOSTS: 'a.example, b.example' }).allowedHosts, [
    'a.example',
    'b.example',
  ]);
  assert.equal(resolveConfig({ data, allowedHosts: ['c.example'] }, { SVC_ALLOWED_HOSTS: 'a.example' }).allowedHosts, [
    'c.example',
  ]);
  assert.equal(resolveConfig({ data }, {}).allowedHosts, []);
});

test.run();
