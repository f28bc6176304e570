import { ALL_SCOPES } from '../../../shared/scopes.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { defaultConfig } from '../../../daemon/config.js';
import { oauthUrlsOf } from '../../../daemon/oauth/urls.js';
import { discover } from '../../helpers/oauth.js';

/**
 * How an MCP client finds svc's authorization server: the 401 from /api/mcp names the resource
 * metadata, which names the authorization server, whose metadata names every endpoint. Every URL
 * comes from the public URL, whatever Host or X-Forwarded-* the request carried.
 */
const test = suite('oauth discovery');
const PUBLIC = 'https://svc.example.com';
let t: TestApp;

test.before.each(async () => {
  t = await createTestApp({ config: { publicUrl: PUBLIC, trustProxy: true } });
});
test.after.each(() => t.close());

const spoofed = { host: 'svc.example.com', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };

test('the 401 from /api/mcp names the protected resource metadata', async () => {
  const res = await t.post('/api/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { host: 'svc.example.com' });
  assert.is(res.status, 401);
  const challenge = String(res.headers['www-authenticate']);
  assert.match(challenge, /^Bearer /);
  assert.ok(
    challenge.includes(`resource_metadata="${PUBLIC}/.well-known/oauth-protected-resource/api/mcp"`),
    challenge,
  );
});

test('the protected resource metadata, at both paths, from the public URL only', async () => {
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/mcp']) {
    const res = await t.get(path, spoofed);
    assert.is(res.status, 200, path);
    assert.equal(res.body, {
      resource: `${PUBLIC}/api/mcp`,
      authorization_servers: [PUBLIC],
      scopes_supported: [...ALL_SCOPES],
      bearer_methods_supported: ['header'],
      resource_name: 'svc MCP endpoint',
    });
  }
});

test('the authorization server metadata (RFC 8414 and the OpenID path) names every endpoint under the public URL', async () => {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    const res = await t.get(path, spoofed);
    assert.is(res.status, 200, path);
    const m = res.body;
    assert.is(m.issuer, PUBLIC);
    assert.is(m.authorization_endpoint, `${PUBLIC}/oauth/authorize`);
    assert.is(m.token_endpoint, `${PUBLIC}/oauth/token`);
    assert.is(m.registration_endpoint, `${PUBLIC}/oauth/register`);
    assert.is(m.revocation_endpoint, `${PUBLIC}/oauth/revoke`);
    assert.equal(m.code_challenge_methods_supported, ['S256']);
    assert.equal(m.response_types_supported, ['code']);
    assert.ok(m.grant_types_supported.includes('refresh_token'));
    assert.is(m.authorization_response_iss_parameter_supported, true);
    // The keys' scope vocabulary; the library always lists `openid` too, and the consent route grants only svc's own scopes.
    for (const scope of ALL_SCOPES) assert.ok(m.scopes_supported.includes(scope), scope);
    assert.not.match(res.text, /evil\.example/);
  }
});

test('a real OAuth client library reads the metadata', async () => {
  const as = await discover(t);
  assert.is(as.issuer, PUBLIC);
  assert.is(as.token_endpoint, `${PUBLIC}/oauth/token`);
});

test('without --public-url the URLs are the daemon’s own loopback address', () => {
  const urls = oauthUrlsOf(defaultConfig({ port: 7999 }).publicUrl, '/api/mcp');
  assert.equal(urls, {
    issuer: 'http://127.0.0.1:7999',
    resource: 'http://127.0.0.1:7999/api/mcp',
    resourceMetadata: 'http://127.0.0.1:7999/.well-known/oauth-protected-resource/api/mcp',
  });
});

test('a Host the daemon does not answer to is refused before the authorization server runs', async () => {
  const res = await t.get('/.well-known/oauth-authorization-server', { host: 'evil.example' });
  assert.is(res.status, 421);
});

test.run();
