import { UsageError } from '../errors.js';
import { emptyMade, linked, resolveReferences } from './references.js';
import { SEED_KINDS, type SeedFile, type SeedKind } from './seed-file.js';
import type { SeedState } from './seed-state.js';
import { seedMember } from './seed-members.js';
import { seedRuntimeKind } from './seed-runtime.js';
import { ownerApi, type SeedApi, type SeedLine, type SeedRun } from './seed-run.js';

export type { SeedApi, SeedLine, SeedRun } from './seed-run.js';

/**
 * Makes what the file declares, kind by kind in dependency order, finding what exists first so a
 * second run makes nothing: users by e-mail, Companies, keys and agents by name, sessions and
 * configured events through the state file. References are resolved just before each entry.
 */
export async function applySeed(
  seed: SeedFile,
  api: SeedApi,
  state: SeedState,
  options: { keepSessions?: boolean } = {},
): Promise<SeedRun> {
  const run: SeedRun = { api, state, made: emptyMade(), tokens: new Map(), lines: [] };
  let done = false;
  try {
    for (const kind of SEED_KINDS) {
      for (const [name, raw] of Object.entries(seed[kind] ?? {})) {
        const where = `${kind}.${name}`;
        const entry = resolveReferences(raw, run.made, where) as Record<string, unknown>;
        const line = await seedOne(run, kind, name, entry, where);
        run.lines.push(line);
      }
    }
    done = true;
  } finally {
    // The acting sessions end with the seeding (a scenario ends them after its steps): nothing made
    // here outlives it but what the file declares.
    if (!done || !options.keepSessions) await endSeedSessions(run);
  }
  return run;
}

export async function endSeedSessions(run: SeedRun): Promise<void> {
  await Promise.allSettled([...run.tokens.values()].map((t) => run.api.as(t).post('/api/auth/logout', {})));
}

/** New acting sessions for every seeded user (after the clock moved past the old ones' ten minutes). */
export async function renewSeedSessions(run: SeedRun): Promise<void> {
  await endSeedSessions(run);
  for (const user of Object.values(run.made.users)) {
    const res = await run.api.operator.post<{ token: string }>('/api/dev/users', {
      email: user.email,
      password: user.password,
    });
    run.tokens.set(String(user.id), res.token);
  }
}

async function seedOne(run: SeedRun, kind: SeedKind, name: string, e: Record<string, unknown>, where: string) {
  if (kind === 'users') return seedUser(run, name, e, where);
  if (kind === 'companies') return seedCompany(run, name, e, where);
  if (kind === 'members') return seedMember(run, name, e, where);
  if (kind === 'keys') return seedKey(run, name, e, where);
  return seedRuntimeKind(run, kind, name, e, where);
}

async function seedUser(run: SeedRun, name: string, e: Record<string, unknown>, where: string): Promise<SeedLine> {
  if (typeof e.email !== 'string' || typeof e.password !== 'string')
    throw new UsageError(`${where}: a user needs "email" and "password"`);
  const res = await run.api.operator.post<{ created: boolean; token: string; user: Record<string, unknown> }>(
    '/api/dev/users',
    { email: e.email, password: e.password, tier: e.tier, totp_secret: e.totp_secret },
  );
  run.made.users[name] = { ...res.user, password: e.password };
  run.tokens.set(String(res.user.id), res.token);
  return { kind: 'users', name, id: String(res.user.id), created: res.created };
}

async function seedCompany(run: SeedRun, name: string, e: Record<string, unknown>, where: string): Promise<SeedLine> {
  const owner = linked(run.made, 'users', e.owner, `${where}.owner`);
  const api = run.api.as(run.tokens.get(String(owner.id))!);
  const label = typeof e.name === 'string' ? e.name : name;
  const list = await api.get<{ companies: Array<{ id: string; name: string }> }>('/api/companies');
  let company = list.companies.find((c) => c.name === label);
  const created = !company;
  if (!company) company = await api.post<{ id: string; name: string }>('/api/companies', { name: label });
  run.made.companies[name] = { id: company.id, name: company.name, owner_id: owner.id };
  return { kind: 'companies', name, id: company.id, created };
}

async function seedKey(run: SeedRun, name: string, e: Record<string, unknown>, where: string): Promise<SeedLine> {
  const company = linked(run.made, 'companies', e.company, `${where}.company`);
  const api = ownerApi(run, company);
  const label = typeof e.name === 'string' ? e.name : name;
  const list = await api.get<{ keys: Array<{ id: string; name: string; company: { id: string } }> }>('/api/keys');
  const found = list.keys.find((k) => k.name === label && k.company.id === company.id);
  if (found) {
    run.made.keys[name] = { id: found.id, name: label, company_id: company.id };
    return { kind: 'keys', name, id: found.id, created: false };
  }
  // scopes and expiry go through as written: the daemon that knows them applies them.
  const { company: _c, env: _e, ...rest } = e;
  const res = await api.post<{ id: string; secret_key: string }>('/api/keys', {
    ...rest,
    root: company.id,
    name: label,
  });
  run.made.keys[name] = { id: res.id, name: label, company_id: company.id, secret_key: res.secret_key };
  return { kind: 'keys', name, id: res.id, created: true, secret: res.secret_key };
}
