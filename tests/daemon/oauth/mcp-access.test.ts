import { createHash } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser, type TestUser } from '../../helpers/accounts.js';
import { createCompany, rotateAccountKey } from '../../helpers/keys.js';
import { clientOptions, discover, registerClient, signIn } from '../../helpers/oauth.js';
import { testAppModes, type TestApp } from '../../helpers/test-app.js';

/**
 * OAuth access tokens at /api/mcp and /api/mcp/validate, where a secret key goes: the same
 * permission check and scopes, the same tool-call limit, the same tier rule, and every way a token
 * ends (expiry, revocation, its grant revoked or replayed) refused on the very next request with a
 * Bearer challenge that sends the client back to sign in. On the memory store and in team mode.
 */
for (const mode of testAppModes()) {
  const test = suite(`oauth tokens at /api/mcp (${mode.name})`);
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let user: TestUser;
  let companyId: string;

  test.before.each(async () => {
    t = await mode.open({ config: { mcpToolCallsPerMinute: 3 } });
    as = await discover(t);
    client = await registerClient(t, as);
    user = await createUser(t, { tier: 'company' });
    companyId = (await createCompany(t, user, 'acme')).id;
  });
  test.after.each(() => t.close());

  const mcp = (token: string, body: unknown, headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url: '/api/mcp',
      payload: JSON.stringify(body),
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-11-25',
        ...headers,
      },
    });
  let id = 1;
  const call = (token: string, name: string, args: Record<string, unknown> = {}) =>
    mcp(token, { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } });
  const validate = (token: string, headers: Record<string, string> = {}) =>
    t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${token}`, ...headers });

  /** A 401 that sends an OAuth client back to sign in (RFC 6750 §3.1, RFC 9728 §5.1). */
  const assertDead = (res: { status: number; headers: Record<string, unknown>; body: any }, why: string) => {
    assert.is(res.status, 401, why);
    assert.is(res.body.code, 'invalid_token', why);
    const challenge = String(res.headers['www-authenticate']);
    assert.match(challenge, /^Bearer /, why);
    assert.ok(
      challenge.includes(`resource_metadata="${t.deps.config.publicUrl}/.well-known/oauth-protected-resource/api/mcp"`),
      challenge,
    );
    assert.match(challenge, /error="invalid_token"/, why);
  };

  test('validate names the user, the Company chosen at consent, the client and the granted scopes', async () => {
    const tokens = await signIn(t, as, client, { user, companyId, scope: 'events:read quests:read' });
    const res = await validate(tokens.access_token);
    assert.is(res.status, 200, res.text);
    assert.is(res.body.user.id, user.user.id);
    assert.equal(res.body.company, { id: companyId, name: 'acme' });
    assert.is(res.body.key_id, null);
    assert.is(res.body.oauth.client_id, client.client_id);
    assert.equal(res.body.oauth.scopes, ['events:read', 'quests:read']);
    assert.is(res.body.account_key, false);
    // With the user's own account key, as with a secret key; another user's is refused.
    const ak = await rotateAccountKey(t, user);
    assert.is((await validate(tokens.access_token, { 'x-api-key': ak })).body.account_key, true);
    const stranger = await createUser(t, { tier: 'company' });
    const theirs = await validate(tokens.access_token, { 'x-api-key': await rotateAccountKey(t, stranger) });
    assert.is(theirs.status, 401);
    assert.is(theirs.body.code, 'account_key_mismatch');
  });

  test('tools: the granted scopes decide tools/list and tools/call, through the one permission check', async () => {
    const tokens = await signIn(t, as, client, { user, companyId, scope: 'events:read' });
    const list = await mcp(tokens.access_token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.is(list.status, 200, list.text);
    const names = list.body.result.tools.map((tool: { name: string }) => tool.name);
    assert.ok(names.includes('whoami') && names.includes('events_read'), names.join());
    assert.not.ok(names.includes('quests_read'), 'a tool outside the scopes is not listed');

    const who = await call(tokens.access_token, 'whoami');
    assert.is(who.status, 200, who.text);
    assert.equal(who.body.result.structuredContent.company, { id: companyId, name: 'acme' });
    assert.is(who.body.result.structuredContent.key_id, null);
    assert.is(who.body.result.structuredContent.client_id, client.client_id);
    const events = await call(tokens.access_token, 'events', { action: 'list' });
    assert.is(events.status, 200, events.text);
    assert.not.ok(events.body.result.isError, events.text);

    const write = await call(tokens.access_token, 'events', { action: 'trigger', type: 'x:y' });
    assert.is(write.status, 403);
    assert.match(String(write.headers['www-authenticate']), /error="insufficient_scope", scope="events:trigger"/);
    assert.is(write.body.error.data.required_scope, 'events:trigger');
    assert.match(write.body.error.message, /This access token lacks the scope events:trigger/);
    const quests = await call(tokens.access_token, 'quests', { action: 'list' });
    assert.is(quests.status, 403);
  });

  test('tool calls are limited per grant, as they are per key', async () => {
    const tokens = await signIn(t, as, client, { user, companyId });
    for (let i = 0; i < 3; i++) assert.is((await call(tokens.access_token, 'whoami')).status, 200);
    const refused = await call(tokens.access_token, 'whoami');
    assert.is(refused.status, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    // A refreshed token is the same grant: the same count.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, clientOptions(t)),
    );
    assert.is((await call(refreshed.access_token, 'whoami')).status, 429);
    // Another grant (another sign-in) counts on its own.
    const other = await signIn(t, as, client, { user, companyId });
    assert.is((await call(other.access_token, 'whoami')).status, 200);
  });

  test("the tier rule: 402 while the Company's owner is on a tier without keys, then back", async () => {
    const tokens = await signIn(t, as, client, { user, companyId });
    await t.deps.stores.users.setTier(user.user.id, 'trial');
    const refused = await call(tokens.access_token, 'whoami');
    assert.is(refused.status, 402);
    assert.is(refused.body.code, 'subscription_required');
    assert.is((await validate(tokens.access_token)).status, 402);
    await t.deps.stores.users.setTier(user.user.id, 'company');
    assert.is((await call(tokens.access_token, 'whoami')).status, 200);
  });

  test('an expired token, a revoked one, one of a revoked or replayed grant: 401 on the next request', async () => {
    const revoke = async (token: string) =>
      oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), token, clientOptions(t)));

    const expiring = await signIn(t, as, client, { user, companyId });
    assert.is((await call(expiring.access_token, 'whoami')).status, 200);
    t.clock.advance((expiring.expires_in ?? 3600) * 1000 + 1000);
    assertDead(await call(expiring.access_token, 'whoami'), 'expired');
    assertDead(await validate(expiring.access_token), 'expired, at validate');

    const revoked = await signIn(t, as, client, { user, companyId });
    assert.is((await call(revoked.access_token, 'whoami')).status, 200);
    await revoke(revoked.access_token);
    assertDead(await call(revoked.access_token, 'whoami'), 'revoked');

    // Revoking the refresh token ends the grant, its access token included.
    const grantGone = await signIn(t, as, client, { user, companyId });
    await revoke(grantGone.refresh_token!);
    assertDead(await call(grantGone.access_token, 'whoami'), 'grant revoked');

    // A rotated refresh token presented again ends the whole grant: the newest access token too.
    const first = await signIn(t, as, client, { user, companyId });
    const refresh = (token: string) =>
      oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, clientOptions(t));
    const second = await oauth.processRefreshTokenResponse(as, client, await refresh(first.refresh_token!));
    assert.is((await call(second.access_token, 'whoami')).status, 200);
    assert.is((await refresh(first.refresh_token!)).status, 400);
    assertDead(await call(second.access_token, 'whoami'), 'refresh reuse');
  });

  test('a token issued for another resource is refused', async () => {
    const tokens = await signIn(t, as, client, { user, companyId });
    // The same record, as the authorization server would have written it for another audience.
    const idHash = createHash('sha256').update(tokens.access_token).digest('hex');
    const now = new Date(t.clock.now()).toISOString();
    const record = await t.deps.stores.oauth.find('AccessToken', idHash, now);
    assert.ok(record, 'the token is in the store under the hash of its value');
    await t.deps.stores.oauth.put(
      { ...record, payload: { ...record.payload, aud: 'https://elsewhere.example/mcp' } },
      now,
    );
    assertDead(await call(tokens.access_token, 'whoami'), 'another audience');
  });

  test("a token nobody issued is refused; a value of no known shape gets the key path's explanation", async () => {
    assertDead(await call('A'.repeat(43), 'whoami'), 'a token-shaped guess');
    // Not token-shaped: the key path explains what is wrong, as before.
    const malformed = await call('not-a-token', 'whoami');
    assert.is(malformed.status, 401);
    assert.is(malformed.body.code, 'malformed_key');
  });

  test('the token is for the MCP endpoint only: the REST routes do not take it', async () => {
    const tokens = await signIn(t, as, client, { user, companyId });
    const res = await t.get('/api/events', { authorization: `Bearer ${tokens.access_token}` });
    assert.is(res.status, 401);
    assert.is((await t.get('/api/me', { authorization: `Bearer ${tokens.access_token}` })).status, 401);
  });

  test.run();
}
