import type { MailMessage } from '../shared/wire.js';
import type { Logger } from './logger.js';
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
