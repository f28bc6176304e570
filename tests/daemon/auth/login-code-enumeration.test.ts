import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Logger } from '../../../daemon/logger.js';
import { createUser } from '../../helpers/accounts.js';
import { createTestApp } from '../../helpers/test-app.js';

/**
 * SECURITY.md (enumeration): a login-code request answers the same status, body and roughly the
 * same time for known and unknown e-mails. An unknown address is never mailed, so the answer must
 * not wait on, or depend on, sending the mail: a slow or failing mailer would tell them apart.
 */
const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

const request = (t: Awaited<ReturnType<typeof createTestApp>>, email: string) =>
  t.post('/api/auth/login/code/request', { email });

test('a failing mailer: a known address answers exactly like an unknown one, and the failure is logged', async () => {
  const errors: string[] = [];
  const log: Logger = { info: () => {}, warn: () => {}, error: (m) => errors.push(m) };
  const t = await createTestApp({ log });
  const u = await createUser(t);
  t.deps.mailer = { send: () => Promise.reject(new Error('smtp: connection refused')) };
  const known = await request(t, u.user.email!);
  const unknown = await request(t, 'nobody@example.com');
  assert.equal([known.status, known.body], [unknown.status, unknown.body]);
  assert.is(known.status, 200);
  await settle();
  assert.is(errors.length, 1, 'the failed send is logged for the operator');
  // The code row was stored all the same: the login code works once the mail gets through another way.
  assert.ok(await t.deps.stores.users.findByEmail(u.user.email!));
});

test('a mailer that never finishes does not hold the answer for a known address', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  let sent = 0;
  t.deps.mailer = {
    send: () => {
      sent++;
      return new Promise(() => {});
    },
  };
  // The guard only turns a hang into a failure; nothing is measured.
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((r) => (timer = setTimeout(r, 5000, 'hung')));
  const answer = await Promise.race([request(t, u.user.email!), hung]);
  clearTimeout(timer);
  assert.is.not(answer, 'hung');
  assert.is((answer as { status: number }).status, 200);
  assert.is(sent, 0, 'the mail is not even started before the answer is out');
  await settle();
  assert.is(sent, 1);
});

test('a mailer that throws at once: the known address still answers like the unknown one', async () => {
  const t = await createTestApp();
  const u = await createUser(t);
  t.deps.mailer = {
    send: () => {
      throw new Error('smtp: misconfigured');
    },
  };
  const known = await request(t, u.user.email!);
  const unknown = await request(t, 'nobody@example.com');
  assert.equal([known.status, known.body], [unknown.status, unknown.body]);
  await settle();
});

test.run();
