import { unavailable } from './domain-error.js';
import { ErrorCode } from '../shared/errors.js';
import type nodemailer from 'nodemailer';
import { loadLazily } from './lazy-module.js';
import type { Clock } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mailer.js';

/**
 * Real e-mail (`--smtp` / SVC_SMTP_URL): codes and links go out over SMTP and nothing is captured
 * (the outbox of a local daemon exists because it has no mail; with SMTP, keeping a second copy of
 * every live code would only add a place to steal them from). Sending is awaited, so a route that
 * sends a code answers only once the server has accepted the message.
 */
export interface SmtpMailerDeps {
  clock: Clock;
  ids: IdGenerator;
  log: Logger;
}

const DEFAULT_FROM = 'svc <no-reply@localhost>';

// ~40 modules: loaded by the first mail sent, not at start (lazy-module.ts).
const loadNodemailer = loadLazily('SMTP mail (nodemailer)', async () => (await import('nodemailer')).default);

/** Checks the URL's form at start: smtp:// (STARTTLS when offered) or smtps:// (TLS from the first byte). */
export function checkSmtpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('invalid SMTP URL: use smtp://user:password@host:587 or smtps://user:password@host:465');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:')
    throw new Error(`invalid SMTP URL ${redactSmtpUrl(url)}: it must start with smtp:// or smtps://`);
  if (!parsed.hostname) throw new Error(`invalid SMTP URL ${redactSmtpUrl(url)}: it names no host`);
  return parsed;
}

/** The URL as it may be logged: the password is a credential. */
export function redactSmtpUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:@/?#]*):[^@/?#]*@/i, '$1:***@');
}

export function createSmtpMailer(url: string, deps: SmtpMailerDeps): Mailer & { close(): void } {
  const parsed = checkSmtpUrl(url);
  // `?from=` sets the sender; it is ours, not a transport option, so it is taken off the URL.
  const from = parsed.searchParams.get('from') || DEFAULT_FROM;
  parsed.searchParams.delete('from');
  // Bounded waits: a dead mail server must not hold a signup request for nodemailer's minutes.
  const open = (mailer: typeof nodemailer) =>
    mailer.createTransport(
      { url: parsed.toString(), connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
      { from },
    );
  let transport: ReturnType<typeof open> | undefined;
  return {
    async send(mail) {
      transport ??= open(await loadNodemailer());
      const info = await transport
        .sendMail({ to: mail.to, subject: mail.subject, text: mail.text })
        .catch((err: Error) => {
          // The recipient and the server's answer go to the log, never the subject or text: they carry
          // the code. The caller gets a 503 it can retry, not a 500 (the request itself was fine).
          deps.log.warn(`SMTP delivery to ${mail.to} failed: ${err.message}`);
          throw unavailable(
            'The mail server could not take the message just now; try again in a moment.',
            ErrorCode.mailUnavailable,
          );
        });
      const id = deps.ids('mail');
      deps.log.info(`mail to ${mail.to} sent over SMTP`, { mail_id: id, smtp_id: info.messageId });
      return {
        id,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        code: mail.code ?? null,
        link: mail.link ?? null,
        created_at: new Date(deps.clock.now()).toISOString(),
      };
    },
    close: () => transport?.close(),
  };
}
