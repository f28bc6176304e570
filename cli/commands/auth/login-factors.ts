import type { Command, OptionValues } from '../../command-spec.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { ask } from '../../prompt.js';
import { saveLogin } from '../../session.js';
import { loginWithEmailCode } from './login-email-code.js';
import { loginWithWallet } from './login-wallet.js';

export interface FactorLoginOptions {
  email?: string;
  emailCode: boolean;
  code?: string;
  wallet: boolean;
  invite?: string;
  totpCode?: string;
  data?: string;
}

/**
 * The passwordless ways of `svc login`: `--email-code` and `--wallet`. The password login
 * (login.ts) calls `runFactorLogin` when either flag is given, and `finishLogin` (cli/totp-step.ts) for
 * its own TOTP step.
 */
export async function runFactorLogin(opts: FactorLoginOptions, ctx: CliContext): Promise<void> {
  if (opts.emailCode === opts.wallet) throw new UsageError('choose one way to log in: --email-code or --wallet');
  let token: string;
  let who: string;
  if (opts.emailCode) {
    const email = opts.email ?? (await ask(ctx, 'E-mail: ', { flagHint: 'pass --email <address>' }));
    token = await loginWithEmailCode(ctx, {
      email,
      code: opts.code,
      totpCode: opts.totpCode,
      data: opts.data,
      waitMs: 15_000,
      intervalMs: 250,
    });
    who = email;
  } else {
    const result = await loginWithWallet(ctx, { invite: opts.invite, totpCode: opts.totpCode });
    token = result.token;
    who = result.address;
  }
  await saveLogin(ctx, token);
  if (ctx.json) ctx.printJson({ ok: true, logged_in_as: who, url: ctx.url() });
  else ctx.out(`Logged in to ${ctx.url()} as ${who}.`);
}

/** Adds the passwordless flags to `svc login` (login.ts). `--email` is not among them: the password login has it already. */
export function addFactorLoginFlags(cmd: Command): Command {
  return cmd
    .option('--email-code', 'log in with a code (and magic link) e-mailed to you', false)
    .option(
      '--code <code>',
      'with --email-code: the 6-digit code you received (else asked, or read from a local daemon)',
    )
    .option('--wallet', 'Sign-In with Ethereum; the key comes from SVC_WALLET_KEY or stdin', false)
    .option('--invite <code>', 'with --wallet: sign up with this invite code if the wallet has no account')
    .option('--totp-code <code>', 'the code from your authenticator app (or a recovery code), if the account has TOTP')
    .option('--data <dir>', "data folder of a local daemon (to read the e-mailed code from 'svc mail')");
}

export const factorOptionsOf = (flags: OptionValues): FactorLoginOptions => ({
  email: flags.email,
  emailCode: Boolean(flags.emailCode),
  code: flags.code,
  wallet: Boolean(flags.wallet),
  invite: flags.invite,
  totpCode: flags.totpCode,
  data: flags.data,
});
