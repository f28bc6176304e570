import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { keyListResponse } from '../../../shared/schemas/keys.js';
import { makeStoredKeyCurrent } from '../../stored-keys.js';

/** `svc keys use <id>`: which of the stored keys of its Company `svc keys validate` and `svc mcp` send. */
export async function runKeysUse(opts: { id: string }, ctx: CliContext): Promise<void> {
  const { keys } = await ctx.api().get('/api/keys', { schema: keyListResponse });
  const row = keys.find((k) => k.id === opts.id);
  if (!row) throw new NotFoundError(`you have no secret key ${opts.id}`, "list them with 'svc keys list'");
  const used = await makeStoredKeyCurrent(ctx, row.company.id, row);
  if (!used)
    throw new NotFoundError(
      `the secret key ${row.id} '${row.name}' is not stored on this machine (the daemon shows a key only once)`,
      "create one here with 'svc keys create --name <label>'; 'svc keys list' marks the stored ones",
    );
  if (ctx.json) return ctx.printJson({ ok: true, id: row.id, company: row.company });
  ctx.out(`Now using secret key ${row.id} '${row.name}' for Company ${row.company.name ?? row.company.id}.`);
}

export function keysUseCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('use')
    .description('make a stored secret key the current one of its Company')
    .argument('<id>', 'the key id (key_…, from svc keys list)');
  return action(cmd, makeCtx, (ctx, _flags, id: string) => runKeysUse({ id }, ctx));
}
