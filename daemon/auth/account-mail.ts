import type { Context } from 'koa';
import type { Deps } from '../deps.js';

/**
 * The e-mails of the account flows. Codes and links appear in the text (and in the outbox's `code`
 * and `link` fields); the outbox seals them at rest.
 */
type MailDeps = Pick<Deps, 'mailer' | 'config'>;

export function sendVerifyCode(deps: MailDeps, to: string, code: string) {
  return deps.mailer.send({
    to,
    subject: 'Your svc verification code',
    text: `Your verification code is ${code}.\nIt is valid for 10 minutes. Enter it with: svc verify --code ${code}\nIf you did not sign up, ignore this e-mail.`,
    code,
  });
}

export function sendSignupAttemptNotice(deps: MailDeps, to: string) {
  return deps.mailer.send({
    to,
    subject: 'Someone tried to sign up with your e-mail',
    text:
      'Someone tried to create an svc account with this address, which already has one.\n' +
      'If it was you: log in with "svc login", or reset your password with "svc password forgot".\n' +
      'If it was not you, nothing changed and you can ignore this e-mail.',
  });
}

export function sendResetLink(deps: MailDeps, to: string, token: string) {
  const link = `${deps.config.publicUrl}/auth/reset?token=${token}`;
  return deps.mailer.send({
    to,
    subject: 'Reset your svc password',
    text:
      `Someone (hopefully you) asked to reset the password of this svc account.\n` +
      `Reset it within 30 minutes: svc password reset --token ${token}\n(or POST /api/auth/reset-password with this token; link: ${link})\n` +
      'Resetting ends every session. If you did not ask, ignore this e-mail: your password stays as it is.',
    link,
  });
}

export function sendPasswordChangedNotice(deps: MailDeps, to: string, how: 'reset' | 'change') {
  return deps.mailer.send({
    to,
    subject: 'Your svc password was changed',
    text:
      how === 'reset'
        ? 'Your svc password was reset and every session was ended. If this was not you, reset it again now ("svc password forgot").'
        : 'Your svc password was changed and your other sessions were ended. If this was not you, reset it now ("svc password forgot").',
  });
}

export function sendEmailChangeCode(deps: MailDeps, to: string, code: string) {
  return deps.mailer.send({
    to,
    subject: 'Confirm your new svc e-mail address',
    text: `Your code to confirm this address is ${code}. It is valid for 10 minutes.\nIf you did not ask to move an svc account to this address, ignore this e-mail.`,
    code,
  });
}

export function sendEmailChangeTakenNotice(deps: MailDeps, to: string) {
  return deps.mailer.send({
    to,
    subject: 'Someone tried to move an svc account to your e-mail',
    text: 'Another svc account asked to change its e-mail to this address, which already has an account. Nothing changed.',
  });
}

export function sendEmailChangeNotice(deps: MailDeps, to: string, newEmail: string, done: boolean) {
  return deps.mailer.send({
    to,
    subject: done ? 'Your svc e-mail address was changed' : 'A change of your svc e-mail address was requested',
    text: done
      ? `The e-mail address of your svc account is now ${newEmail}. This address no longer logs in. If this was not you, contact the operator.`
      : `Someone logged in to your svc account asked to change its e-mail to ${newEmail}. If this was not you, change your password now.`,
  });
}

/**
 * Sends mail without making the caller wait; failures are logged. The work starts on a later turn
 * of the event loop, so even a mailer's synchronous part (sealing the message, queueing its write)
 * runs after the answer.
 */
export function sendInBackground(deps: Pick<Deps, 'log'>, label: string, work: () => Promise<unknown>): void {
  setImmediate(() => runLogged(deps, label, work));
}

/**
 * For the routes that must answer alike for known and unknown e-mails (SECURITY.md, enumeration):
 * the mail work (a code row, sealing, an outbox write or SMTP) starts only once the answer is out,
 * so neither its time nor its failure can tell a known address from an unknown one, which sends nothing.
 */
export function sendAfterAnswer(
  deps: Pick<Deps, 'log'>,
  ctx: Pick<Context, 'res'>,
  label: string,
  work: () => Promise<unknown>,
): void {
  const res = ctx.res;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    sendInBackground(deps, label, work);
  };
  if (res.writableFinished || res.destroyed) {
    start();
    return;
  }
  // 'close' too: a client that hangs up early still gets its mail.
  res.once('finish', start);
  res.once('close', start);
}

function runLogged(deps: Pick<Deps, 'log'>, label: string, work: () => Promise<unknown>): void {
  const failed = (err: unknown) => deps.log.error(`background mail failed: ${label}`, { err });
  try {
    work().catch(failed);
  } catch (err) {
    failed(err); // a mailer that throws before returning its promise
  }
}
