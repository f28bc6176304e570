import { mkdirSync, rmSync } from 'node:fs';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { StoreConflict, type CompanyRecord, type UserRecord } from '../store/types.js';
import { nameTaken, notYours, unknownCompany } from './company-errors.js';
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
 * A Company the user names by id or by name (a secret key's `root`). Someone else's Company id
 * is refused as not yours (tenant isolation: it exists, but not for this caller); nothing by that
 * id or name is refused as not found.
 */
export async function resolveOwnedCompany(
  deps: Pick<Deps, 'stores'>,
  owner: UserRecord,
  ref: string,
): Promise<CompanyRecord> {
  const mine = await deps.stores.companies.listByOwner(owner.id);
  const found = mine.find((c) => c.id === ref) ?? mine.find((c) => c.name.toLowerCase() === ref.toLowerCase());
  if (found) return found;
  throw (await deps.stores.companies.findById(ref)) ? notYours(ref) : unknownCompany(ref);
}

/** What the API shows of a Company. */
export const companyView = (c: CompanyRecord) => ({ id: c.id, name: c.name, created_at: c.created_at });
