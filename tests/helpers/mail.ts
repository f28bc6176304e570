import type { MailMessage } from '../../shared/wire.js';
import type { TestApp } from './test-app.js';

/**
 * The newest captured message to `to` that passes `match`. Some mail is sent in the background
 * (so known and unknown addresses answer alike), after a scrypt hash and an fsync that a busy
 * machine can make slow: this polls every few milliseconds for up to 10 s. It waits for I/O and
 * asserts nothing about time (the test's clock is the fake one).
 */
export async function waitForMail(
  t: TestApp,
  to: string,
  match: (m: MailMessage) => boolean = () => true,
): Promise<MailMessage> {
  for (let i = 0; i < 2000; i++) {
    const found = (await t.deps.stores.outbox.list({ to })).filter(match).at(-1);
    if (found) return found;
    await new Promise((r) => (i < 100 ? setImmediate(r) : setTimeout(r, 5)));
  }
  throw new Error(`no mail to ${to} arrived`);
}

/** Lets background work (mail sent after the answer) finish and reach the stores. */
export async function settleBackground(t: TestApp): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
  await t.deps.stores.flush();
}

/** Lets background work (mail sent after the answer) finish, then lists the mail to `to`. */
export async function settledMail(t: TestApp, to: string): Promise<MailMessage[]> {
  await settleBackground(t);
  return t.deps.stores.outbox.list({ to });
}

/**
 * Runs `send` (a request that mails `to` after answering) and waits for the one new message it
 * caused: mail that answers-first routes send arrives after their answer.
 */
export async function mailAfter(t: TestApp, to: string, send: () => Promise<unknown>): Promise<MailMessage> {
  const seen = new Set((await t.deps.stores.outbox.list({ to })).map((m) => m.id));
  await send();
  return waitForMail(t, to, (m) => !seen.has(m.id));
}
