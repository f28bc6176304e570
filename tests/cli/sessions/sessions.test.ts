import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp, serveTestApp } from '../../helpers/test-app.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { runSessionsList } from '../../../cli/commands/sessions/list.js';
import { runSessionsRevoke } from '../../../cli/commands/sessions/revoke.js';
import { runSessionsRevokeOthers } from '../../../cli/commands/sessions/revoke-others.js';
import type { ApiRequestError } from '../../../cli/errors.js';

test('sessions list marks this session; revoke and revoke-others end the others', async () => {
  const t = await createTestApp();
  const { url, close } = await serveTestApp(t);
  try {
    const u = await createUser(t, { email: 'ses@example.com' });
    const other1 = (
      await t.post('/api/auth/login', { email: 'ses@example.com', password: u.password }, { 'user-agent': 'phone/1' })
    ).body.token;
    const other2 = (await t.post('/api/auth/login', { email: 'ses@example.com', password: u.password })).body.token;
    const cli = createFakeCli({ url, env: { SVC_TOKEN: u.token } });
    await runSessionsList({}, cli.ctx);
    const lines = cli.stdout().trim().split('\n');
    assert.is(lines.length, 4);
    assert.match(lines[0]!, /ID\s+CREATED\s+LAST SEEN\s+METHOD\s+CLIENT/);
    assert.is(lines.filter((l) => l.startsWith('* ')).length, 1);
    assert.match(cli.stdout(), 'phone/1');

    const json = createFakeCli({ url, json: true, env: { SVC_TOKEN: u.token } });
    await runSessionsList({}, json.ctx);
    const rows = JSON.parse(json.stdout());
    const target = rows.find((r: any) => !r.current && r.user_agent === 'phone/1').id;
    await runSessionsRevoke({ id: target }, cli.ctx);
    assert.match(cli.stdout(), `Revoked session ${target}`);
    assert.is((await t.get('/api/me', { authorization: `Bearer ${other1}` })).status, 401);
    try {
      await runSessionsRevoke({ id: target }, cli.ctx);
      assert.unreachable();
    } catch (err) {
      assert.is((err as ApiRequestError).status, 404);
    }
    await runSessionsRevokeOthers({}, cli.ctx);
    assert.match(cli.stdout(), 'Revoked 1 other session;');
    assert.is((await t.get('/api/me', { authorization: `Bearer ${other2}` })).status, 401);
    assert.is((await t.get('/api/me', u.auth)).status, 200);
  } finally {
    await close();
  }
});

test.run();
