import * as oauth from 'oauth4webapi';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser, type TestUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { waitForMail } from '../../helpers/mail.js';
import { callToolWithToken, clientOptions, discover, registerClient, signIn } from '../../helpers/oauth.js';
import { testAppModes, type TestApp } from '../../helpers/test-app.js';

/**
 * Connected apps: a user's grants listed and revoked, and every way they end (revoked here, the
 * password changed or reset) refused at the MCP endpoint on the next request, refresh tokens
 * included. Another user's grant is a 404 and stays untouched.
 */
for (const mode of testAppModes()) {
  const test = suite(`oauth connected apps (${mode.name})`);
  let t: TestApp;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let user: TestUser;
  let companyId: string;

  test.before.each(async () => {
    t = await mode.open();
    as = await discover(t);
    client = await registerClient(t, as, { client_name: 'Claude' });
    user = await createUser(t, { tier: 'company' });
    companyId = (await createCompany(t, user, 'acme')).id;
  });
  test.after.each(() => t.close());

  const whoami = (token: string) => callToolWithToken(t, token, 'whoami');
  const refresh = (token: string) => oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, clientOptions(t));

  test('GET /api/oauth/grants lists the user’s grants: client, Company, scopes, created, last used', async () => {
    const other = (await createCompany(t, user, 'side')).id;
    const first = await signIn(t, as, client, { user, companyId, scope: 'events:read quests:read' });
    t.clock.advance(1000);
    await signIn(t, as, client, { user, companyId: other });
    const list = await t.get('/api/oauth/grants', user.auth);
    assert.is(list.status, 200, list.text);
    assert.is(list.headers['cache-control'], 'no-store');
    assert.is(list.body.grants.length, 2);
    const [newest, oldest] = list.body.grants;
    assert.is(newest.company_id, other);
    assert.equal(oldest.client, { id: client.client_id, name: 'Claude' });
    assert.is(oldest.company_id, companyId);
    assert.is(oldest.company_name, 'acme');
    assert.equal(oldest.scopes, ['events:read', 'quests:read']);
    assert.type(oldest.created_at, 'string');
    assert.is(oldest.last_used_at, null);

    t.clock.advance(5000);
    assert.is((await whoami(first.access_token)).status, 200);
    const used = (await t.get('/api/oauth/grants', user.auth)).body.grants[1];
    assert.is(used.last_used_at, new Date(t.clock.now()).toISOString());

    // Nobody else sees them; no session, no list.
    const stranger = await createUser(t, { tier: 'company' });
    assert.equal((await t.get('/api/oauth/grants', stranger.auth)).body.grants, []);
    assert.is((await t.get('/api/oauth/grants')).status, 401);
  });

  test('a grant to a Company since deleted leaves the list, and its token is refused', async () => {
    const doomed = (await createCompany(t, user, 'doomed')).id;
    const kept = await signIn(t, as, client, { user, companyId });
    const gone = await signIn(t, as, client, { user, companyId: doomed });
    assert.is((await whoami(gone.access_token)).status, 200);
    assert.is((await t.del(`/api/companies/${doomed}`, user.auth)).status, 200);
    const list = await t.get('/api/oauth/grants', user.auth);
    assert.equal(
      list.body.grants.map((g: { company_id: string }) => g.company_id),
      [companyId],
    );
    assert.is((await whoami(gone.access_token)).status, 401);
    assert.is((await whoami(kept.access_token)).status, 200);
  });

  test('DELETE /api/oauth/grants/{id} ends the grant: its tokens are refused on the next request', async () => {
    const tokens = await signIn(t, as, client, { user, companyId });
    const kept = await signIn(t, as, client, { user, companyId });
    assert.is((await whoami(tokens.access_token)).status, 200);
    const grantOf = async (token: string) =>
      (await t.post('/api/mcp/validate', undefined, { authorization: `Bearer ${token}` })).body.oauth.grant_id;
    const id = await grantOf(tokens.access_token);
    const listed = (await t.get('/api/oauth/grants', user.auth)).body.grants.map((g: { id: string }) => g.id);
    assert.ok(listed.includes(id), 'the grant a token speaks for is the one listed');

    // Another user's grant id answers like an unknown one, and nothing happens.
    const stranger = await createUser(t, { tier: 'company' });
    const theirs = await t.request({ method: 'DELETE', url: `/api/oauth/grants/${id}`, headers: stranger.auth });
    assert.is(theirs.status, 404);
    assert.is(theirs.body.code, 'grant_not_found');
    assert.is((await whoami(tokens.access_token)).status, 200);
    assert.is((await t.request({ method: 'DELETE', url: '/api/oauth/grants/nope', headers: user.auth })).status, 404);
    assert.is((await t.request({ method: 'DELETE', url: `/api/oauth/grants/${id}` })).status, 401);

    const res = await t.request({ method: 'DELETE', url: `/api/oauth/grants/${id}`, headers: user.auth });
    assert.is(res.status, 200, res.text);
    assert.equal(res.body, { ok: true, id, revoked: true });
    const refused = await whoami(tokens.access_token);
    assert.is(refused.status, 401);
    assert.match(String(refused.headers['www-authenticate']), /error="invalid_token"/);
    assert.is((await refresh(tokens.refresh_token!)).status, 400);
    assert.is((await whoami(kept.access_token)).status, 200, 'the other grant lives on');
    const left = (await t.get('/api/oauth/grants', user.auth)).body.grants;
    assert.equal(
      left.map((g: { id: string }) => g.id),
      [await grantOf(kept.access_token)],
    );
    assert.is((await t.request({ method: 'DELETE', url: `/api/oauth/grants/${id}`, headers: user.auth })).status, 404);
  });

  test('changing the password ends every grant of the user, not anyone else’s', async () => {
    const tokens = await signIn(t, as, client, { user, companyId });
    const stranger = await createUser(t, { tier: 'company' });
    const theirs = await signIn(t, as, client, { user: stranger, companyId: (await createCompany(t, stranger)).id });
    const changed = await t.post(
      '/api/auth/change-password',
      { current_password: user.password, new_password: 'a brand new long password' },
      user.auth,
    );
    assert.is(changed.status, 200, changed.text);
    assert.is((await whoami(tokens.access_token)).status, 401);
    assert.is((await refresh(tokens.refresh_token!)).status, 400);
    assert.equal((await t.get('/api/oauth/grants', user.auth)).body.grants, []);
    assert.is((await whoami(theirs.access_token)).status, 200);
  });

  test('resetting the password ends every grant of the user', async () => {
    const tokens = await signIn(t, as, client, { user, companyId });
    await t.post('/api/auth/forgot-password', { email: user.user.email });
    const link = new URL((await waitForMail(t, user.user.email!)).link!).searchParams.get('token')!;
    const reset = await t.post('/api/auth/reset-password', { token: link, password: 'a brand new long password' });
    assert.is(reset.status, 200, reset.text);
    assert.is((await whoami(tokens.access_token)).status, 401);
    assert.is((await refresh(tokens.refresh_token!)).status, 400);
  });

  test.run();
}
