import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { mailAfter } from '../../helpers/mail.js';
import { createTestApp } from '../../helpers/test-app.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { enableTotp } from '../../helpers/totp.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** SECURITY.md (files): no plaintext code, token or secret of the second factors under the data folder. */
test('file storage: TOTP secrets, recovery codes, login codes, link tokens, nonces and challenges are never stored in the clear', async () => {
  const dataDir = tempDir('svc-factors-grep');
  // The daemon's log goes to a file in the data folder too (svc daemon start), so it is checked alike.
  const logLines: string[] = [];
  const keep = (m: string, f?: Record<string, unknown>) => logLines.push(m + ' ' + JSON.stringify(f ?? {}));
  const t = await createTestApp({ storage: 'file', dataDir, log: { info: keep, warn: keep, error: keep } });
  const u = await createUser(t);
  const { secret, recoveryCodes } = await enableTotp(t, u);
  const other = await createUser(t);
  const pending = (await t.post('/api/auth/totp/enroll', {}, other.auth)).body.secret as string;

  const mail = await mailAfter(t, u.user.email!, async () => {
    assert.is((await t.post('/api/auth/login/code/request', { email: u.user.email })).status, 200);
  });
  const linkToken = new URL(mail.link!).searchParams.get('token')!;
  const nonce = (await t.post('/api/auth/wallet/nonce', { address: '0x' + 'ab'.repeat(20) })).body.nonce as string;
  const challenge = (await t.post('/api/auth/passkey/login-begin', {})).body.challenge as string;
  const regChallenge = (await t.post('/api/auth/passkey/register-begin', {}, u.auth)).body.challenge as string;
  await t.deps.stores.flush();

  const secrets: Record<string, string> = {
    'TOTP secret': secret,
    'pending TOTP secret': pending,
    'login code link token': linkToken,
    'SIWE nonce': nonce,
    'passkey login challenge': challenge,
    'passkey registration challenge': regChallenge,
  };
  recoveryCodes.forEach((c, i) => {
    secrets[`recovery code ${i}`] = c.replace('-', '');
  });
  const texts: [string, string][] = filesUnder(dataDir).map((f) => [f, readFileSync(f, 'utf8')]);
  texts.push(['the daemon log', logLines.join('\n')]);
  for (const [file, text] of texts) {
    for (const [what, value] of Object.entries(secrets))
      assert.not.ok(text.includes(value), `${file} holds the ${what}`);
    // The 6-digit code is too short to grep for on its own; its mail subject and body must not be there.
    assert.not.ok(/login code/i.test(text) && text.includes(mail.code!), `${file} holds the login code`);
  }
});

test.run();
