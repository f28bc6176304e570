import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { ApiRequestError, NotFoundError } from '../../errors.js';

/** `svc passkeys delete <id>`: removes a passkey; it stops working at once. */
export async function runPasskeysDelete(id: string, ctx: CliContext): Promise<void> {
  try {
    await ctx.api().delete(`/api/auth/passkeys/${encodeURIComponent(id)}`);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 404)
      throw new NotFoundError(`no passkey ${id} on your account`, "see 'svc passkeys list'");
    throw err;
  }
  if (ctx.json) ctx.printJson({ ok: true, id });
  else ctx.out(`Deleted passkey ${id}.`);
}

export function passkeysDeleteCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('delete')
    .description('delete one of your passkeys')
    .argument('<id>', 'the passkey id (from svc passkeys list)');
  return action(cmd, makeCtx, (ctx, _flags, id: string) => runPasskeysDelete(id, ctx));
}
