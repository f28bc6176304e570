import * as oauth from 'oauth4webapi';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { clientOptions, discover, registerClient, signIn } from '../../helpers/oauth.js';
import { createTestApp } from '../../helpers/test-app.js';

/**
 * The token and revocation endpoints take form bodies the OAuth library parses itself: their
 * entries still name the client (and the account, once known) for every outcome, refusals
 * included, and never hold a code or token.
 */
test('token issue, refresh, revocation and their refusals name the client, never a token', async () => {
  const t = await createTestApp();
  try {
    const as = await discover(t);
    const client = await registerClient(t, as);
    const user = await createUser(t, { tier: 'company' });
    const companyId = (await createCompany(t, user, 'acme')).id;
    const tokens = await signIn(t, as, client, { user, companyId });
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, clientOptions(t)),
    );
    // The spent refresh token again: refused (the library rotates them).
    const reused = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.None(),
      tokens.refresh_token!,
      clientOptions(t),
    );
    assert.is(reused.status, 400);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), refreshed.access_token, clientOptions(t)),
    );
    // A client that does not exist.
    const stranger = { client_id: 'no-such-client', token_endpoint_auth_method: 'none' } as oauth.Client;
    const unknown = await oauth.refreshTokenGrantRequest(as, stranger, oauth.None(), 'whatever', clientOptions(t));
    assert.ok(unknown.status >= 400);

    await t.deps.stores.audit.flush();
    const res = await t.get('/api/dev/audit?limit=1000&action=oauth', t.operator);
    const entries = (res.body.entries as any[]).reverse();
    const tokenEntries = entries.filter((e) => e.action === 'oauth.token');
    const summary = tokenEntries.map((e) => `${e.details.grant_type}:${e.outcome}:${e.details.client_id}`);
    assert.equal(summary, [
      `authorization_code:succeeded:${client.client_id}`,
      `refresh_token:succeeded:${client.client_id}`,
      `refresh_token:refused:${client.client_id}`,
      'refresh_token:refused:no-such-client',
    ]);
    for (const e of tokenEntries.slice(0, 2)) {
      assert.is(e.actor.type, 'oauth');
      assert.is(e.actor.client_id, client.client_id);
      assert.is(e.user_id, user.user.id, 'an issued token names the account it speaks for');
    }
    assert.is(tokenEntries[2].reason, 'invalid_grant');
    const revoked = entries.find((e) => e.action === 'oauth.revoke');
    assert.is(revoked.outcome, 'succeeded');
    assert.is(revoked.details.client_id, client.client_id);
    // Only the client id: no code, verifier, refresh or access token.
    const text = JSON.stringify(entries);
    for (const secret of [tokens.access_token, tokens.refresh_token!, refreshed.access_token, refreshed.refresh_token!])
      assert.not.ok(text.includes(secret), 'the trail holds a token');
    assert.ok(!/code_verifier|"code":/.test(text));
  } finally {
    await t.close();
  }
});

test.run();
