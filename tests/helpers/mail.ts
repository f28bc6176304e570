import type { MailMessage } from '../../shared/wire.js';
import type { TestApp } from './test-app.js';

/**
 * The newest captured message to `to` that passes `match`. Some mail is sent in the background
 * (so known and unknown addresses answer alike); this yields to the event loop until it lands,
 * without sleeping on a timer.
 */
export async function waitForMail(t: TestApp, to: string, match: (m: MailMessage) => boolean = () => true): Promise<MailMessage> {
  for (let i = 0; i < 2000; i++) {
    const found = (await t.deps.stores.outbox.list({ to })).filter(match).at(-1);
    if (found) return found;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`no mail to ${to} arrived`);
}

/** Lets background work (mail sent after the answer) finish, then lists the mail to `to`. */
export async function settledMail(t: TestApp, to: string): Promise<MailMessage[]> {
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
  await t.deps.stores.flush();
  return t.deps.stores.outbox.list({ to });
}
