import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { keyListResponse } from '../../../shared/schemas/keys.js';
import { forgetStoredKey } from '../../stored-keys.js';
import { describeStored } from './create.js';

/**
 * `svc keys revoke <id>`: the key stops working at once; the CLI also forgets it if it holds it,
 * and when it was the current key, another stored key that still works becomes current.
 */
export async function runKeysRevoke(opts: { id: string }, ctx: CliContext): Promise<void> {
  const { keys } = await ctx.api().get('/api/keys', { schema: keyListResponse });
  const row = keys.find((k) => k.id === opts.id);
  if (!row) throw new NotFoundError(`you have no secret key ${opts.id}`, "list them with 'svc keys list'");
  await ctx.api().delete('/api/keys/' + encodeURIComponent(opts.id));
  const local = await forgetStoredKey(ctx, row.company.id, row, keys);
  if (ctx.json)
    return ctx.printJson({
      ok: true,
      id: row.id,
      revoked: true,
      forgotten_locally: local.forgotten,
      current_key: local.current?.id ?? null,
    });
  ctx.out(`Revoked secret key ${row.id} '${row.name}' (${row.prefix}); it stops working now.`);
  if (!local.forgotten) return;
  ctx.out('Removed it from the local credential store too.');
  if (!local.wasCurrent) return;
  if (local.current) ctx.out(`The current key for this Company is now ${describeStored(local.current)}.`);
  else ctx.out("No other working key is stored for this Company: create one with 'svc keys create --name <label>'.");
}

export function keysRevokeCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('revoke')
    .description('revoke a secret key now')
    .argument('<id>', 'the key id (key_…, or sk_… for keys made before; from svc keys list)');
  return action(cmd, makeCtx, (ctx, _flags, id: string) => runKeysRevoke({ id }, ctx));
}
