import type * as oauth from 'oauth4webapi';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runAppsList } from '../../../cli/commands/apps/list.js';
import { runAppsRevoke } from '../../../cli/commands/apps/revoke.js';
import { NotFoundError } from '../../../cli/errors.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createCompany } from '../../helpers/keys.js';
import { callToolWithToken, discover, registerClient, signIn } from '../../helpers/oauth.js';
import { createTestApp, serveTestApp } from '../../helpers/test-app.js';

test('svc apps list shows a connected app; revoke ends its tokens; revoking again is not found', async () => {
  const t = await createTestApp();
  const server = await serveTestApp(t);
  try {
    const user = await createUser(t, { tier: 'company' });
    const companyId = (await createCompany(t, user, 'acme')).id;
    const as: oauth.AuthorizationServer = await discover(t);
    const client = await registerClient(t, as, { client_name: 'Claude Code' });
    const tokens = await signIn(t, as, client, { user, companyId, scope: 'events:read quests:read' });
    const env = { SVC_TOKEN: user.token };

    const empty = createFakeCli({ url: server.url, env: { SVC_TOKEN: (await createUser(t)).token } });
    await runAppsList(empty.ctx);
    assert.match(empty.stderr(), /^no connected apps/);

    const table = createFakeCli({ url: server.url, env });
    await runAppsList(table.ctx);
    assert.match(table.stdout(), /^ID +APP +COMPANY +SCOPES +CONNECTED +LAST USED$/m);
    assert.match(table.stdout(), / Claude Code +acme +events:read,quests:read +\d{4}-\d\d-\d\d \d\d:\d\d +never$/m);

    const json = createFakeCli({ url: server.url, env, json: true });
    await runAppsList(json.ctx);
    const [row] = JSON.parse(json.stdout());
    assert.equal(row.client, { id: client.client_id, name: 'Claude Code' });
    assert.is(row.company_id, companyId);

    const revoke = createFakeCli({ url: server.url, env, json: true });
    await runAppsRevoke(row.id, revoke.ctx);
    assert.equal(JSON.parse(revoke.stdout()), { ok: true, id: row.id, revoked: true });
    assert.is((await callToolWithToken(t, tokens.access_token, 'whoami')).status, 401);
    try {
      await runAppsRevoke(row.id, createFakeCli({ url: server.url, env }).ctx);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, NotFoundError);
      assert.match((err as Error).message, /you have no connected app/);
    }
  } finally {
    await server.close();
  }
});

test.run();
