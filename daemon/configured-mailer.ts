import { createOutboxMailer, type Mailer } from './mailer.js';
import { createSmtpMailer, redactSmtpUrl, type SmtpMailerDeps } from './smtp-mailer.js';
import type { MailOutbox } from './store/types.js';

/** SMTP when a URL is configured (`--smtp` / SVC_SMTP_URL, CONTRACT §5), else the outbox `svc mail` reads. */
export function createConfiguredMailer(
  smtpUrl: string | undefined,
  outbox: MailOutbox,
  deps: SmtpMailerDeps,
): Mailer & { close?(): void } {
  if (!smtpUrl) return createOutboxMailer(outbox, deps.log);
  deps.log.info(`mail is sent over SMTP via ${redactSmtpUrl(smtpUrl)}`);
  return createSmtpMailer(smtpUrl, deps);
}
