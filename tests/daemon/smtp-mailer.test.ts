import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createIdGenerator } from '../../daemon/ids.js';
import { createLogger } from '../../daemon/logger.js';
import { cryptoRandom } from '../../daemon/random.js';
import { checkSmtpUrl, createSmtpMailer, redactSmtpUrl } from '../../daemon/smtp-mailer.js';
import { DomainError } from '../../daemon/domain-error.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { createTestApp } from '../helpers/test-app.js';
import { startSmtpServer } from '../helpers/smtp.js';

const test = suite('SMTP mailer');

const setup = (lines: string[] = []) => {
  const clock = new FakeClock();
  return { clock, ids: createIdGenerator(clock, cryptoRandom), log: createLogger((l) => lines.push(l)) };
};

test('a code and a link go out over SMTP, logged in, from the ?from= sender; the log names no code', async () => {
  const smtp = await startSmtpServer();
  const lines: string[] = [];
  const mailer = createSmtpMailer(
    `${smtp.url}?from=${encodeURIComponent('Team svc <auth@example.test>')}`,
    setup(lines),
  );
  const sent = await mailer.send({
    to: 'ada@example.test',
    subject: 'Your svc login code: 493021',
    text: 'Your login code is 493021.\nhttp://x/magic?t=abc',
    code: '493021',
    link: 'http://x/magic?t=abc',
  });
  const got = await smtp.next((m) => m.to.includes('ada@example.test'));
  assert.is(got.user, 'svc');
  assert.is(got.from, 'auth@example.test');
  assert.match(got.raw, /^From: Team svc <auth@example\.test>/m);
  assert.match(got.raw, /^Subject: Your svc login code: 493021/m);
  assert.match(got.raw, /Your login code is 493021\./);
  assert.is(sent.code, '493021');
  assert.is(sent.to, 'ada@example.test');
  assert.match(sent.id, /^mail_/);
  assert.ok(lines.some((l) => l.includes('mail to ada@example.test sent over SMTP')));
  assert.not.ok(
    lines.some((l) => l.includes('493021')),
    'the code never reaches the log',
  );
  mailer.close();
  await smtp.close();
});

test('a refused login or a dead server is a retryable refusal (503 mail_unavailable); the log names the recipient, never the code', async () => {
  const smtp = await startSmtpServer();
  const lines: string[] = [];
  const wrong = createSmtpMailer(smtp.url.replace('s3cret', 'wrong'), setup(lines));
  const err = await wrong
    .send({ to: 'bob@example.test', subject: 'code 111222', text: 'code 111222' })
    .catch((e: Error) => e);
  assert.instance(err, DomainError);
  assert.is((err as DomainError).refusal, 'unavailable');
  assert.is((err as DomainError).code, 'mail_unavailable');
  assert.not.match((err as Error).message, /111222/);
  assert.ok(lines.some((l) => l.includes('SMTP delivery to bob@example.test failed: ')));
  assert.not.ok(
    lines.some((l) => l.includes('111222')),
    'the code never reaches the log',
  );
  assert.is(smtp.received.length, 0);
  wrong.close();
  await smtp.close();
  const dead = createSmtpMailer(smtp.url, setup());
  const down = await dead.send({ to: 'bob@example.test', subject: 's', text: 't' }).catch((e: Error) => e);
  assert.is((down as DomainError).code, 'mail_unavailable');
  dead.close();
});

test("mail server down: the signup answers as for any address and logs the failure; the owner's resend answers 503", async () => {
  const smtp = await startSmtpServer();
  await smtp.close();
  const lines: string[] = [];
  const t = await createTestApp({ config: { smtpUrl: smtp.url }, log: createLogger((l) => lines.push(l)) });
  const invite = (await t.post('/api/dev/invites', {}, t.operator)).body.code;
  const res = await t.post('/api/auth/signup', {
    email: 'down@example.test',
    password: 'a long enough password',
    invite_code: invite,
  });
  // A 503 here would tell a new address (mailed a code) from a taken one (whose notice is not waited for).
  assert.is(res.status, 200, res.text);
  for (let i = 0; i < 200 && !lines.some((l) => l.includes('background mail failed: signup code')); i++)
    await new Promise((r) => setTimeout(r, 10));
  assert.ok(
    lines.some((l) => l.includes('background mail failed: signup code')),
    'the operator sees the failure',
  );
  // The owner's own resend waits for the server, so it can say so: 503 with Retry-After, never 500.
  t.clock.advance(61_000);
  const resend = await t.post('/api/auth/resend-code', {}, { authorization: `Bearer ${res.body.token}` });
  assert.is(resend.status, 503, resend.text);
  assert.is(resend.body.code, 'mail_unavailable');
  assert.ok(resend.headers['retry-after']);
});

test('SMTP URLs: smtp:// or smtps:// with a host; the password is redacted wherever the URL is shown', () => {
  assert.is(checkSmtpUrl('smtps://u:p@mail.example.test:465').hostname, 'mail.example.test');
  assert.throws(() => checkSmtpUrl('http://mail.example.test'), /must start with smtp:\/\/ or smtps:\/\//);
  assert.throws(() => checkSmtpUrl('mail.example.test'), /invalid SMTP URL/);
  assert.throws(
    () => checkSmtpUrl('smtp://u:hunter2@'),
    (e: Error) => !e.message.includes('hunter2'),
  );
  assert.is(redactSmtpUrl('smtp://u:hunter2@mail:587'), 'smtp://u:***@mail:587');
});

test.run();
