import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runPasskeysDelete } from '../../../cli/commands/passkeys/delete.js';
import { runPasskeysList } from '../../../cli/commands/passkeys/list.js';
import { NotFoundError } from '../../../cli/errors.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { SoftAuthenticator } from '../../helpers/soft-authenticator.js';
import { createTestApp, serveTestApp } from '../../helpers/test-app.js';

test('svc passkeys list shows a registered passkey; delete removes it; deleting again is not found', async () => {
  const t = await createTestApp();
  const server = await serveTestApp(t);
  try {
    const u = await createUser(t);
    const begin = await t.post('/api/auth/passkey/register-begin', { name: 'yubikey' }, u.auth);
    const id = (
      await t.post(
        '/api/auth/passkey/register-finish',
        { response: new SoftAuthenticator().register(begin.body) },
        u.auth,
      )
    ).body.passkey.id;
    const env = { SVC_TOKEN: u.token };
    const list = createFakeCli({ url: server.url, env });
    await runPasskeysList(list.ctx);
    assert.match(list.stdout(), new RegExp(`^${id}  yubikey  added .* last used never$`, 'm'));
    const del = createFakeCli({ url: server.url, env, json: true });
    await runPasskeysDelete(id, del.ctx);
    assert.equal(JSON.parse(del.stdout()), { ok: true, id });
    try {
      await runPasskeysDelete(id, createFakeCli({ url: server.url, env }).ctx);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, NotFoundError);
    }
    const empty = createFakeCli({ url: server.url, env, json: true });
    await runPasskeysList(empty.ctx);
    assert.equal(JSON.parse(empty.stdout()), []);
  } finally {
    await server.close();
  }
});

test.run();
