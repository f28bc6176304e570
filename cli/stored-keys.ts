import { maskKey } from '../shared/keys.js';
import type { CliContext } from './context.js';
import { accounts } from './credentials/store.js';

/** One secret key the CLI keeps; a key stored by an older svc has no id or name and is matched by its prefix. */
export interface StoredKey {
  id: string | null;
  name: string | null;
  secret: string;
}

/** What the daemon says about a key: enough to match a stored one and to tell whether it still works. */
export interface KeyFacts {
  id: string;
  prefix: string;
  created_at?: string;
  expires_at?: string | null;
  retires_at?: string | null;
}

/**
 * The secret keys of one Company in one profile. The current key stays where every reader has
 * always found it (`secret-key:<profile>:<company>`: `svc mcp`, `svc auth status`, an older svc);
 * the whole set, current one included, is a JSON list beside it. A profile written before the
 * list existed has only the current key, which reads as a set of one.
 */
export async function readStoredKeys(
  ctx: CliContext,
  companyId: string,
): Promise<{ keys: StoredKey[]; current: string | null }> {
  const store = ctx.credentials();
  const current = await store.get(accounts.secretKey(ctx.scope, companyId));
  let keys: StoredKey[] = [];
  try {
    const parsed = JSON.parse((await store.get(accounts.secretKeys(ctx.scope, companyId))) ?? '[]') as unknown;
    if (Array.isArray(parsed)) keys = parsed.filter((k): k is StoredKey => typeof k?.secret === 'string');
  } catch {
    // An unreadable list loses only the extra keys: the current one is still read from its own entry.
  }
  if (current && !keys.some((k) => k.secret === current)) keys.unshift({ id: null, name: null, secret: current });
  return { keys, current };
}

async function writeStoredKeys(ctx: CliContext, companyId: string, keys: StoredKey[], current: string | null) {
  const store = ctx.credentials();
  if (keys.length) await store.set(accounts.secretKeys(ctx.scope, companyId), JSON.stringify(keys));
  else await store.delete(accounts.secretKeys(ctx.scope, companyId));
  if (current) await store.set(accounts.secretKey(ctx.scope, companyId), current);
  else await store.delete(accounts.secretKey(ctx.scope, companyId));
}

export const matchesKey = (stored: StoredKey, key: { id: string; prefix: string }) =>
  stored.id === key.id || maskKey(stored.secret) === key.prefix;

/** Adds a key beside the others (never in place of one); the new key becomes current when asked, or when none is. */
export async function addStoredKey(
  ctx: CliContext,
  companyId: string,
  key: StoredKey,
  options: { replacing?: KeyFacts; makeCurrent: boolean },
): Promise<{ others: StoredKey[] }> {
  const { keys, current } = await readStoredKeys(ctx, companyId);
  const replaced = options.replacing ? keys.find((k) => matchesKey(k, options.replacing!)) : undefined;
  const kept = keys.filter((k) => k !== replaced);
  const makeCurrent = options.makeCurrent || !current || (replaced !== undefined && replaced.secret === current);
  await writeStoredKeys(ctx, companyId, [...kept, key], makeCurrent ? key.secret : current);
  return { others: kept };
}

/**
 * Forgets a revoked key. When it was the current one, the newest stored key the daemon still
 * lists as working (not expired, not on its way out after a rotation) becomes current, so
 * `svc keys validate` and `svc mcp` go on working with a key the user already has.
 */
export async function forgetStoredKey(
  ctx: CliContext,
  companyId: string,
  revoked: KeyFacts,
  live: KeyFacts[],
): Promise<{ forgotten: boolean; current: StoredKey | null; wasCurrent: boolean }> {
  const { keys, current } = await readStoredKeys(ctx, companyId);
  const gone = keys.find((k) => matchesKey(k, revoked));
  if (!gone) return { forgotten: false, current: keys.find((k) => k.secret === current) ?? null, wasCurrent: false };
  const kept = keys.filter((k) => k !== gone);
  const wasCurrent = gone.secret === current;
  let next = kept.find((k) => k.secret === current) ?? null;
  if (wasCurrent)
    next = pickWorking(
      kept,
      live.filter((k) => k.id !== revoked.id),
      ctx.now(),
    );
  await writeStoredKeys(ctx, companyId, kept, next?.secret ?? null);
  return { forgotten: true, current: next, wasCurrent };
}

function pickWorking(keys: StoredKey[], live: KeyFacts[], now: number): StoredKey | null {
  const working = (f: KeyFacts) => !f.expires_at || Date.parse(f.expires_at) > now;
  const candidates = keys
    .map((k) => ({ k, f: live.find((f) => matchesKey(k, f)) }))
    .filter((c): c is { k: StoredKey; f: KeyFacts } => c.f !== undefined && working(c.f))
    // A key still in its rotation overlap stops soon: only a last resort. Then the newest first.
    .sort(
      (a, b) =>
        Number(Boolean(a.f.retires_at)) - Number(Boolean(b.f.retires_at)) ||
        (b.f.created_at ?? '').localeCompare(a.f.created_at ?? ''),
    );
  return candidates[0]?.k ?? null;
}

/** Makes a stored key the current one of its Company; false when that key is not stored here. */
export async function makeStoredKeyCurrent(
  ctx: CliContext,
  companyId: string,
  key: KeyFacts,
): Promise<StoredKey | null> {
  const { keys } = await readStoredKeys(ctx, companyId);
  const found = keys.find((k) => matchesKey(k, key));
  if (!found) return null;
  await writeStoredKeys(ctx, companyId, keys, found.secret);
  return found;
}
