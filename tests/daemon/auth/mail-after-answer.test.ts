import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { GOOD_PASSWORD, newInvite } from '../../helpers/signup.js';
import { createTestApp, type TestApp, type TestResponse } from '../../helpers/test-app.js';

/**
 * SECURITY.md (enumeration): signup, forgot-password, resend-code and login-code requests answer
 * alike for known and unknown e-mails. Only a known one is mailed, so the mail work must not be on
 * the request path at all: with a mailer that never finishes, every answer still arrives, no mail
 * was even started before it, and the two answers match. (The mechanism, not the time, is checked.)
 */
function hangingMailer(t: TestApp): { to: string[] } {
  const calls = { to: [] as string[] };
  t.deps.mailer = {
    send: (mail) => {
      calls.to.push(mail.to);
      return new Promise(() => {});
    },
  };
  return calls;
}

/** The answer, or a failure if it never comes: the bound turns a hang into a failure, nothing is measured. */
async function answered(request: Promise<TestResponse>): Promise<TestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((r) => (timer = setTimeout(r, 5000, 'hung')));
  const answer = await Promise.race([request, hung]);
  clearTimeout(timer);
  if (answer === 'hung') throw new Error('the answer waited on the mailer');
  return answer;
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

/** The answer with the address it names blanked out, to compare a known with an unknown one. */
const shape = (res: TestResponse, email: string) => ({
  status: res.status,
  body: JSON.parse(
    JSON.stringify(res.body)
      .replaceAll(email, '<email>')
      .replace(/"eyJ[\w.-]+"/g, '"<jwt>"'),
  ),
});

test('signup: a new address and a taken one answer alike with no mail started; each is mailed after', async () => {
  const t = await createTestApp();
  await createUser(t, { email: 'taken@example.com' });
  const calls = hangingMailer(t);
  const signup = async (email: string) =>
    answered(t.post('/api/auth/signup', { email, password: GOOD_PASSWORD, invite_code: await newInvite(t) }));
  const fresh = await signup('new@example.com');
  assert.equal(calls.to, [], 'the code mail starts after the answer');
  await settle();
  const taken = await signup('taken@example.com');
  assert.equal(calls.to, ['new@example.com'], 'the notice to the owner starts after the answer');
  assert.equal(shape(fresh, 'new@example.com'), shape(taken, 'taken@example.com'));
  assert.is(fresh.status, 200);
  await settle();
  assert.equal(calls.to.sort(), ['new@example.com', 'taken@example.com']);
});

test('forgot-password: known and unknown answer alike with no mail started; only the known one is mailed', async () => {
  const t = await createTestApp();
  await createUser(t, { email: 'known@example.com' });
  const calls = hangingMailer(t);
  const forgot = (email: string) => answered(t.post('/api/auth/forgot-password', { email }));
  const known = await forgot('known@example.com');
  assert.equal(calls.to, [], 'the reset link is made and mailed after the answer');
  const unknown = await forgot('nobody@example.com');
  assert.equal(shape(known, 'known@example.com'), shape(unknown, 'nobody@example.com'));
  assert.is(known.status, 200);
  await settle();
  assert.equal(calls.to, ['known@example.com']);
});

test('resend-code by {email}: a waiting account and an unknown address answer alike with no mail started', async () => {
  const t = await createTestApp();
  await createUser(t, { email: 'waiting@example.com', verified: false });
  const calls = hangingMailer(t);
  const resend = (email: string) => answered(t.post('/api/auth/resend-code', { email }));
  const waiting = await resend('waiting@example.com');
  assert.equal(calls.to, [], 'the new code is made and mailed after the answer');
  const unknown = await resend('nobody@example.com');
  assert.equal(shape(waiting, 'waiting@example.com'), shape(unknown, 'nobody@example.com'));
  assert.is(waiting.status, 200);
  await settle();
  assert.equal(calls.to, ['waiting@example.com']);
});

test('login-code request: known and unknown answer alike with no mail started; only the known one is mailed', async () => {
  const t = await createTestApp();
  await createUser(t, { email: 'known@example.com' });
  const calls = hangingMailer(t);
  const ask = (email: string) => answered(t.post('/api/auth/login/code/request', { email }));
  const known = await ask('known@example.com');
  assert.equal(calls.to, [], 'the mail starts after the answer');
  const unknown = await ask('nobody@example.com');
  assert.equal(shape(known, 'known@example.com'), shape(unknown, 'nobody@example.com'));
  await settle();
  assert.equal(calls.to, ['known@example.com']);
});

test.run();
