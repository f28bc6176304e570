import type { MailListResponse } from '../../../shared/wire.js';
import type { CliContext } from '../../context.js';
import { FailedError, UsageError } from '../../errors.js';
import { operatorApi } from '../../operator.js';
import { ask } from '../../prompt.js';
import { finishLogin, type LoginAnswer } from '../../totp-step.js';

export interface EmailCodeOptions {
  email: string;
  /** The 6-digit code, if the user already has it. */
  code?: string;
  totpCode?: string;
  /** Data folder of a local daemon, whose captured mail is read when no code is typed. */
  data?: string;
  /** How long to wait for the message in a local daemon's mail, and how often to look. */
  waitMs: number;
  intervalMs: number;
}

/**
 * `svc login --email-code`: asks the daemon to e-mail a code and a magic link, then takes the
 * code (or the pasted link) at a prompt — or, with no terminal, reads it from a local daemon's
 * captured mail (`svc mail`). Returns the session token; the caller saves it.
 */
export async function loginWithEmailCode(ctx: CliContext, opts: EmailCodeOptions): Promise<string> {
  const api = ctx.api();
  // Remember the newest message first, so only the mail this request sends is taken.
  const mail = opts.code || ctx.interactive ? null : operatorApi(ctx, opts.data);
  const before = mail
    ? (await mail.get<MailListResponse>('/api/dev/mail', { query: { to: opts.email } })).mail.at(-1)?.id
    : undefined;
  await api.post('/api/auth/login/code/request', { email: opts.email }, { token: null });
  if (!ctx.json) ctx.err(`A login code is on its way to ${opts.email}.`);

  let typed = opts.code;
  if (!typed && ctx.interactive) typed = await ask(ctx, 'Enter the 6-digit code (or paste the link): ');
  if (!typed && mail) typed = await waitForCode(mail, opts, before);
  if (!typed) throw new UsageError('no code given', 'pass --code <code>, or run on a terminal');

  const link = linkToken(typed);
  const answer = link
    ? await api.post<LoginAnswer>('/api/auth/login/magic/consume', { token: link }, { token: null })
    : await api.post<LoginAnswer>('/api/auth/login/code/consume', { email: opts.email, code: typed }, { token: null });
  return finishLogin(ctx, answer, opts.totpCode);
}

/** A pasted magic link (`…/auth/magic?token=…`) gives its token; a code gives null. */
function linkToken(input: string): string | null {
  if (!/^https?:\/\//i.test(input)) return null;
  try {
    return new URL(input).searchParams.get('token');
  } catch {
    return null;
  }
}

async function waitForCode(
  mail: ReturnType<typeof operatorApi>,
  opts: EmailCodeOptions,
  sinceId: string | undefined,
): Promise<string> {
  const deadline = Date.now() + opts.waitMs;
  for (;;) {
    const found = (
      await mail.get<MailListResponse>('/api/dev/mail', { query: { to: opts.email, since_id: sinceId } })
    ).mail.find((m) => m.code);
    if (found?.code) return found.code;
    // No mail at all for an unknown address: the daemon answers the same either way, so say what it may mean.
    if (Date.now() >= deadline)
      throw new FailedError(
        `no login code arrived for ${opts.email}`,
        'check the address (only existing accounts get a code), or pass --code',
      );
    await new Promise((r) => setTimeout(r, opts.intervalMs));
  }
}
