import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { keyListResponse } from '../../../shared/schemas/keys.js';
import { forgetSecretKeyIfStored } from '../../keys.js';

/** `svc keys revoke <id>`: the key stops working at once; the CLI also forgets it if it holds it. */
export async function runKeysRevoke(opts: { id: string }, ctx: CliContext): Promise<void> {
  const { keys } = await ctx.api().get('/api/keys', { schema: keyListResponse });
  const row = keys.find((k) => k.id === opts.id);
  if (!row) throw new NotFoundError(`you have no secret key ${opts.id}`, "list them with 'svc keys list'");
  await ctx.api().delete('/api/keys/' + encodeURIComponent(opts.id));
  const forgotten = await forgetSecretKeyIfStored(ctx, row);
  if (ctx.json) return ctx.printJson({ ok: true, id: row.id, revoked: true, forgotten_locally: forgotten });
  ctx.out(`Revoked secret key ${row.id} '${row.name}' (${row.prefix}); it stops working now.`);
  if (forgotten) ctx.out('Removed it from the local credential store too.');
}

export function keysRevokeCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('revoke')
    .description('revoke a secret key now')
    .argument('<id>', 'the key id (key_…, or sk_… for keys made before; from svc keys list)');
  return action(cmd, makeCtx, (ctx, _flags, id: string) => runKeysRevoke({ id }, ctx));
}
