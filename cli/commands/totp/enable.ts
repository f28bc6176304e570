import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { ask } from '../../prompt.js';

export interface EnableOptions {
  /** Confirm a pending enrolment with this code (the non-interactive second step). */
  confirm?: string;
}

interface Begin {
  secret: string;
  otpauth_uri: string;
  expires_at: string;
}

/**
 * `svc totp enable`: shows the otpauth URI and a QR code drawn in the terminal, asks for the first
 * code, and prints the recovery codes — once. Without a terminal it stops after the URI; finish
 * with `svc totp enable --confirm <code>`.
 */
export async function runTotpEnable(opts: EnableOptions, ctx: CliContext): Promise<void> {
  const api = ctx.api();
  let code = opts.confirm;
  if (!code) {
    const begin = await api.post<Begin>('/api/auth/totp/enroll', {});
    if (!ctx.interactive) {
      if (ctx.json) return ctx.printJson({ ...begin, next: 'svc totp enable --confirm <code>' });
      ctx.out(begin.otpauth_uri);
      ctx.out(`secret: ${begin.secret}`);
      ctx.err(
        `Add it to your authenticator app, then run: svc totp enable --confirm <code> (before ${begin.expires_at}).`,
      );
      return;
    }
    const { default: QRCode } = await import('qrcode');
    ctx.out('Scan this with your authenticator app (or enter the secret by hand):');
    ctx.out(await QRCode.toString(begin.otpauth_uri, { type: 'terminal', small: true }));
    ctx.out(`secret: ${begin.secret}`);
    ctx.out();
    code = await ask(ctx, 'Enter the 6-digit code the app shows: ');
  }
  const done = await api.post<{ recovery_codes: string[] }>('/api/auth/totp/enroll/confirm', { code });
  if (ctx.json) return ctx.printJson({ ok: true, enabled: true, recovery_codes: done.recovery_codes });
  ctx.out('Two-factor authentication is on.');
  ctx.out('Recovery codes — each works once if you lose the app. Store them now; they are not shown again:');
  for (const c of done.recovery_codes) ctx.out(`  ${c}`);
}

export function totpEnableCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('enable')
    .description('turn on two-factor authentication with an authenticator app')
    .option('--confirm <code>', 'finish a pending enrolment with the first code from the app');
  return action(cmd, makeCtx, (ctx, flags) => runTotpEnable({ confirm: flags.confirm }, ctx));
}
