import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { ask, readAllStdin } from '../../prompt.js';

export interface DisableOptions {
  code?: string;
  /** Read the password from stdin instead of a code. */
  passwordStdin: boolean;
}

/** `svc totp disable`: needs a current code (or a recovery code), or the password. */
export async function runTotpDisable(opts: DisableOptions, ctx: CliContext): Promise<void> {
  let proof: { code?: string; password?: string };
  if (opts.code) proof = { code: opts.code };
  else if (opts.passwordStdin) proof = { password: await readAllStdin(ctx) };
  else if (ctx.interactive)
    proof = { code: await ask(ctx, 'Current two-factor code (or a recovery code): ', { secret: true }) };
  else
    throw new UsageError(
      'turning two-factor off needs proof',
      'pass --code <code>, or --password-stdin with the password on stdin',
    );
  await ctx.api().post('/api/auth/totp/disable', proof);
  if (ctx.json) ctx.printJson({ ok: true, enabled: false });
  else ctx.out('Two-factor authentication is off.');
}

export function totpDisableCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('disable')
    .description('turn off two-factor authentication')
    .option('--code <code>', 'a current code from the app, or a recovery code')
    .option('--password-stdin', 'prove it with the account password, read from stdin', false);
  return action(cmd, makeCtx, (ctx, flags) =>
    runTotpDisable({ code: flags.code, passwordStdin: Boolean(flags.passwordStdin) }, ctx),
  );
}
