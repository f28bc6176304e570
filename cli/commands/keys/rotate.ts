import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { keyRotatedResponse } from '../../../shared/schemas/key-access.js';
import { parseDuration } from '../../../shared/duration.js';
import { keyListResponse } from '../../../shared/schemas/keys.js';
import { storeName } from '../../keys.js';
import { addStoredKey, matchesKey, readStoredKeys } from '../../stored-keys.js';
import { describeAccess } from './create.js';

export interface KeysRotateOptions {
  id: string;
  /** How long the old key keeps working: a duration such as 24h, or 0. */
  overlap: string;
  store: boolean;
}

/**
 * `svc keys rotate <id> --overlap 24h`: a new key with the same Company, name, scopes and expiry
 * policy; the old one keeps working until the overlap ends. When the CLI held the old key for that
 * Company, it holds the new one instead.
 */
export async function runKeysRotate(opts: KeysRotateOptions, ctx: CliContext): Promise<void> {
  const overlap = opts.overlap.trim() === '0' ? 0 : parseDuration(opts.overlap);
  if (overlap === null)
    throw new UsageError(
      `--overlap ${opts.overlap} is not a duration`,
      'use e.g. 24h, 30m, 7d or 0 (stop the old key now)',
    );
  const { keys } = await ctx.api().get('/api/keys', { schema: keyListResponse });
  const old = keys.find((k) => k.id === opts.id);
  const rotated = await ctx
    .api()
    .post(
      `/api/keys/${encodeURIComponent(opts.id)}/rotate`,
      { overlap_seconds: overlap },
      { schema: keyRotatedResponse },
    );
  // The new key takes the old one's place when the CLI holds the old one (current if it was), or
  // is stored when this Company has none here; a key rotated elsewhere is not added beside others.
  const held = old ? (await readStoredKeys(ctx, old.company.id)).keys : [];
  const store = opts.store && old !== undefined && (held.length === 0 || held.some((k) => matchesKey(k, old)));
  if (store)
    await addStoredKey(
      ctx,
      rotated.company.id,
      { id: rotated.id, name: rotated.name, secret: rotated.secret_key },
      { replacing: old, makeCurrent: false },
    );
  if (ctx.json) return ctx.printJson({ ...rotated, stored: store });
  ctx.out(
    `Rotated ${opts.id}: new secret key ${rotated.id} '${rotated.name}' for Company ${rotated.company.name ?? rotated.company.id}`,
  );
  ctx.out(describeAccess(rotated));
  ctx.out();
  ctx.out(`  ${rotated.secret_key}`);
  ctx.out();
  ctx.out(rotated.note);
  ctx.out(`The old key ${opts.id} keeps working until ${rotated.rotated_from.retires_at}, then stops.`);
  if (store) ctx.out(`Stored the new key in ${storeName(ctx)} in place of the old one.`);
}

export function keysRotateCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('rotate')
    .description('replace a secret key with a new one; the old one keeps working for the overlap')
    .argument('<id>', 'the key id (key_…, from svc keys list)')
    .requiredOption('--overlap <duration>', 'how long the old key keeps working: e.g. 24h, 30m, 0 (at most 30d)')
    .option('--no-store', 'only print the new key; do not keep it in the credential store');
  return action(cmd, makeCtx, (ctx, flags, id: string) =>
    runKeysRotate({ id, overlap: flags.overlap, store: flags.store !== false }, ctx),
  );
}
