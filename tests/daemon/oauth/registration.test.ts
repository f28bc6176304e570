import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { REDIRECT_URI } from '../../helpers/oauth.js';

/**
 * Dynamic client registration (RFC 7591): a 201 with a client_id for a well-formed public client;
 * a refusal, with RFC 7591's error names, for what the server will not do; and a limit per address.
 */
const test = suite('oauth registration');
let t: TestApp;

test.before.each(async () => {
  t = await createTestApp();
});
test.after.each(() => t.close());

const register = (body: unknown, headers: Record<string, string> = {}) => t.post('/oauth/register', body, headers);

test('a public client with a loopback redirect URI is registered: 201, no secret', async () => {
  const res = await register({
    redirect_uris: [REDIRECT_URI],
    token_endpoint_auth_method: 'none',
    client_name: 'My agent',
  });
  assert.is(res.status, 201, res.text);
  assert.type(res.body.client_id, 'string');
  assert.is(res.body.client_secret, undefined);
  assert.equal(res.body.grant_types, ['authorization_code', 'refresh_token']);
  assert.is(res.body.client_name, 'My agent');
});

test('refusals: no redirect URI, a malformed one, the implicit flow, another response type', async () => {
  const cases: Array<[unknown, string]> = [
    [{ token_endpoint_auth_method: 'none' }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['not a url'], token_endpoint_auth_method: 'none' }, 'invalid_redirect_uri'],
    [
      { redirect_uris: [REDIRECT_URI], grant_types: ['implicit'], response_types: ['token'] },
      'invalid_client_metadata',
    ],
    [{ redirect_uris: [REDIRECT_URI], response_types: ['code id_token'] }, 'invalid_client_metadata'],
  ];
  for (const [body, error] of cases) {
    const res = await register(body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error, error, res.text);
  }
});

test('a body that is not JSON is refused by the library, not passed to svc’s JSON parser', async () => {
  const res = await t.request({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: '{"redirect_uris": [',
  });
  assert.is(res.status, 400);
  assert.is(res.body.error, 'invalid_request');
});

test('registrations are limited per address: the 11th in an hour is a 429 with Retry-After', async () => {
  for (let i = 0; i < 10; i++)
    assert.is((await register({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' })).status, 201);
  const res = await register({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
  assert.is(res.status, 429);
  assert.ok(Number(res.headers['retry-after']) > 0);
  t.clock.advance(3600_000);
  assert.is((await register({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' })).status, 201);
});

test('authorization requests are limited per address: each stores a pending request before any login', async () => {
  const res = await register({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: res.body.client_id,
    redirect_uri: REDIRECT_URI,
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'S256',
    scope: 'events:read',
  });
  for (let i = 0; i < 30; i++) assert.is((await t.get(`/oauth/authorize?${query}`)).status, 303);
  const refused = await t.get(`/oauth/authorize?${query}`);
  assert.is(refused.status, 429);
  assert.ok(Number(refused.headers['retry-after']) > 0);
});

test('the token endpoint answers an unknown client as OAuth does, with no-store', async () => {
  const res = await t.request({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'grant_type=authorization_code&code=x&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&client_id=nobody',
  });
  assert.is(res.status, 401);
  assert.is(res.body.error, 'invalid_client');
  assert.is(res.headers['cache-control'], 'no-store');
});

test('token and revocation requests are limited per address: an unknown https client_id cannot have the daemon fetch without end', async () => {
  const form = (path: string, payload: string) =>
    t.request({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });
  const token = 'grant_type=authorization_code&code=x&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&client_id=nobody';
  for (let i = 0; i < 60; i++) assert.is((await form('/oauth/token', token)).status, 401);
  for (let i = 0; i < 60; i++) assert.is((await form('/oauth/revoke', 'token=x&client_id=nobody')).status, 401);
  const refused = await form('/oauth/token', token);
  assert.is(refused.status, 429);
  assert.ok(Number(refused.headers['retry-after']) > 0);
  assert.is((await form('/oauth/revoke', 'token=x&client_id=nobody')).status, 429);
  t.clock.advance(600_000);
  assert.is((await form('/oauth/token', token)).status, 401);
});

test.run();
