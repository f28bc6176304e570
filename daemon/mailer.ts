import type { MailMessage } from '../shared/wire.js';
import type { Logger } from './logger.js';
import { createSmtpMailer, redactSmtpUrl, type SmtpMailerDeps } from './smtp-mailer.js';
import type { MailOutbox, NewMail } from './store/types.js';

/**
 * Outgoing mail. A local daemon without `--smtp` captures every message in the outbox, where
 * `svc mail` and `GET /api/dev/mail` read it; with it, daemon/smtp-mailer.ts sends them. The log
 * line names the recipient, never the code.
 */
export interface Mailer {
  send(mail: NewMail): Promise<MailMessage>;
}

export function createOutboxMailer(outbox: MailOutbox, log: Logger): Mailer {
  return {
    async send(mail) {
      const message = await outbox.record(mail);
      // Not the subject: it may carry the code, and the daemon log is a file in the data folder.
      log.info(`mail to ${mail.to}`, { mail_id: message.id, read_with: `svc mail --to ${mail.to}` });
      return message;
    },
  };
}

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
