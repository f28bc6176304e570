import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { keyListResponse } from '../../../shared/schemas/keys.js';
import { formatTable, shortTime } from '../../table.js';
import { matchesKey, readStoredKeys } from '../../stored-keys.js';
import type { SecretKeyRow } from '../../keys.js';

/**
 * `svc keys list`: metadata only (the daemon never returns a whole key again), each key marked
 * `current` or `stored` when this profile holds it (`svc keys use` picks the current one).
 */
export async function runKeysList(_opts: object, ctx: CliContext): Promise<void> {
  const list = await ctx.api().get('/api/keys', { schema: keyListResponse });
  const held = await storedMarks(ctx, list.keys);
  // One row per key, the account key among them: the same bare-array shape as every list.
  if (ctx.json)
    return ctx.printList([
      ...list.keys.map((k) => ({ kind: 'secret', ...k, stored: held.get(k.id) ?? null })),
      ...(list.account_key ? [{ kind: 'account', ...list.account_key }] : []),
    ]);
  if (list.keys.length === 0)
    ctx.err(
      "no secret keys: create one with 'svc keys create --name <label>' (for the current Company; --company <name> for another)",
    );
  else {
    const rows = list.keys.map((k) => [
      k.id,
      k.name,
      k.company.name ?? k.company.id,
      k.prefix,
      k.scopes ? k.scopes.join(',') : 'all',
      expiryText(k),
      shortTime(k.created_at),
      k.last_used_at
        ? `${shortTime(k.last_used_at)}${k.last_used_ip ? ` from ${k.last_used_ip}` : ''}`
        : shortTime(null),
      held.get(k.id) ?? '',
    ]);
    formatTable(['ID', 'NAME', 'COMPANY', 'KEY', 'SCOPES', 'EXPIRES', 'CREATED', 'LAST USED', 'HERE'], rows).forEach(
      (l) => {
        ctx.out(l);
      },
    );
  }
  const ak = list.account_key;
  if (ak)
    ctx.out(
      `account key ${ak.id}  ${ak.prefix}  created ${shortTime(ak.created_at)}  last used ${shortTime(ak.last_used_at)}`,
    );
  else ctx.out("account key: none (create one with 'svc account-key rotate')");
}

async function storedMarks(ctx: CliContext, keys: SecretKeyRow[]): Promise<Map<string, 'current' | 'stored'>> {
  const marks = new Map<string, 'current' | 'stored'>();
  for (const companyId of new Set(keys.map((k) => k.company.id))) {
    const { keys: stored, current } = await readStoredKeys(ctx, companyId);
    for (const k of keys)
      for (const s of stored)
        if (k.company.id === companyId && matchesKey(s, k))
          marks.set(k.id, s.secret === current ? 'current' : 'stored');
  }
  return marks;
}

/** A rotated key shows when its overlap ends (and what replaced it) instead of its own expiry. */
function expiryText(k: {
  expires_at?: string | null;
  retires_at?: string | null;
  replaced_by?: string | null;
}): string {
  if (k.retires_at) return `${shortTime(k.retires_at)} (rotated to ${k.replaced_by})`;
  return k.expires_at ? shortTime(k.expires_at) : 'never';
}

export function keysListCommand(makeCtx: ContextFactory): Command {
  return action(
    new Command('list').description('list your secret keys and account key (metadata only)'),
    makeCtx,
    (ctx) => runKeysList({}, ctx),
  );
}
