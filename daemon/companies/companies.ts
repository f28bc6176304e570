import { mkdirSync, rmSync } from 'node:fs';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { StoreConflict, type CompanyRecord, type UserRecord } from '../store/types.js';
import type { Role } from '../../shared/roles.js';
import { ambiguous, nameTaken, notYours, unknownCompany } from './company-errors.js';
import { companyDataDir } from '../company/index.js';

type CompanyDeps = Pick<Deps, 'config' | 'clock' | 'ids' | 'stores'>;

/**
 * Creates a Company owned by the user and its runtime data folder (0700: it will hold the
 * Company's agents, transcripts and events). The folder is made before the row is stored, so a
 * Company that exists always has its folder.
 */
export async function createCompany(deps: CompanyDeps, owner: UserRecord, name: string): Promise<CompanyRecord> {
  if ((await deps.stores.companies.listByOwner(owner.id)).some((c) => c.name.toLowerCase() === name.toLowerCase())) {
    throw nameTaken(name);
  }
  const id = deps.ids('cmp');
  const dir = companyDataDir(deps.config.dataDir, id);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    return await deps.stores.companies.create({ id, name, owner_id: owner.id, created_at: isoAt(deps.clock.now()) });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true }); // the id was never given out: leave no orphan folder
    // Two creates with the same name raced past the first check; the store's atomic check decided.
    if (err instanceof StoreConflict) throw nameTaken(name);
    throw err;
  }
}

/**
 * A Company the user names by id or by name (a secret key's `root`), among those they own or
 * belong to, with their role. A name matches the user's own Company first; a name two Companies
 * they joined share is refused as ambiguous (the id is unique). Someone else's Company id is
 * refused as not yours (tenant isolation: it exists, but not for this caller); nothing by that id
 * or name is refused as not found.
 */
export async function resolveMemberCompany(
  deps: Pick<Deps, 'stores'>,
  user: UserRecord,
  ref: string,
): Promise<{ company: CompanyRecord; role: Role }> {
  const mine = await deps.stores.members.companiesOf(user.id);
  const byId = mine.find((c) => c.company.id === ref);
  if (byId) return byId;
  const named = mine.filter((c) => c.company.name.toLowerCase() === ref.toLowerCase());
  const owned = named.find((c) => c.role === 'owner');
  if (owned) return owned;
  if (named.length === 1) return named[0]!;
  if (named.length > 1) throw ambiguous(ref);
  throw (await deps.stores.companies.findById(ref)) ? notYours(ref) : unknownCompany(ref);
}

/** What the API shows of a Company. */
export const companyView = (c: CompanyRecord) => ({ id: c.id, name: c.name, created_at: c.created_at });

/** A Company in the caller's list: with their role and who owns it. */
export const memberCompanyView = ({ company, role }: { company: CompanyRecord; role: Role }) => ({
  ...companyView(company),
  role,
  owner_id: company.owner_id,
});
