import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApp, serveTestApp } from '../../helpers/test-app.js';
import { createUser } from '../../helpers/accounts.js';
import { createFakeCli } from '../../helpers/cli.js';
import { waitForMail } from '../../helpers/mail.js';
import { runPasswordChange } from '../../../cli/commands/password/change.js';
import { runPasswordForgot } from '../../../cli/commands/password/forgot.js';
import { runPasswordReset } from '../../../cli/commands/password/reset.js';

test('password change reads current and new from stdin; forgot + reset with the pasted link', async () => {
  const t = await createTestApp();
  const { url, close } = await serveTestApp(t);
  try {
    const u = await createUser(t, { email: 'pwd@example.com' });
    const changed = 'a second long password';
    const cli = createFakeCli({ url, env: { SVC_TOKEN: u.token }, stdin: `${u.password}\n${changed}\n` });
    await runPasswordChange({ passwordStdin: true }, cli.ctx);
    assert.match(cli.stdout(), 'Password changed.');
    assert.is((await t.post('/api/auth/login', { email: 'pwd@example.com', password: changed })).status, 200);

    const forgot = createFakeCli({ url });
    await runPasswordForgot({ email: 'pwd@example.com' }, forgot.ctx);
    assert.match(forgot.stdout(), 'reset link is on its way');
    const link = (await waitForMail(t, 'pwd@example.com', (m) => m.link !== null)).link!;
    const reset = createFakeCli({ url, json: true, stdin: 'the third long password\n' });
    await reset.ctx.credentials().set(`token:${url}`, 'old-token');
    await runPasswordReset({ token: link, passwordStdin: true }, reset.ctx);
    assert.is(JSON.parse(reset.stdout()).ok, true);
    assert.is(reset.credentials.size, 0, 'the local login is forgotten: it was revoked');
    assert.is(
      (await t.post('/api/auth/login', { email: 'pwd@example.com', password: 'the third long password' })).status,
      200,
    );
  } finally {
    await close();
  }
});

test.run();
