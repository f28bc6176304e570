import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDataDir } from '../data-dir.js';
import { syncFolder } from '../store/disk/segment-io.js';
import { createSegmentImporter, type SegmentImporter } from '../store/event-log/segment-import.js';
import { companyDataDir } from '../company/index.js';
import type { EventRow } from '../../shared/runtime-records.js';
import { companySpec } from '../store/accounts/tables.js';
import { openJournalSpace } from '../store/journal/index.js';
import { ARCHIVE_ACCOUNT_SPECS, EVENTS, SECRET_FILES, SECRETS, type ArchiveRecord } from './archive-tables.js';
import { AUDIT, folderAuditLoader } from './audit-transfer.js';
import type { NewAuditEntry } from '../store/audit-types.js';
import { runtimeTablesOf } from './runtime-table-map.js';
import { SpaceLoader } from './space-loader.js';

/**
 * Loads archive records into `dir`, a new folder (the caller's staging folder, renamed into place
 * only once this resolves): secrets as 0600 files, accounts into the accounts journal, each
 * Company's runtime tables into its journal and its events into its log with their ids. The
 * records of a Company come together (checkArchive saw to it), so one Company is open at a time.
 */
export async function writeDataFolder(
  dir: string,
  records: AsyncIterable<ArchiveRecord>,
  importEntry?: NewAuditEntry,
): Promise<void> {
  ensureDataDir(dir);
  const audit = folderAuditLoader(dir);
  const accounts = new SpaceLoader(
    await openJournalSpace(dir, { name: 'accounts' }),
    ARCHIVE_ACCOUNT_SPECS,
    'accounts.',
  );
  const open: { company: CompanyLoad | null } = { company: null };
  const closeCompany = async () => {
    const company = open.company;
    open.company = null;
    company?.events?.close();
    await company?.runtime?.close();
  };
  try {
    for await (const r of records) {
      if (r.table === SECRETS) {
        writeSecret(dir, r.record.name as string, r.record.value as string);
        continue;
      }
      if (r.table === AUDIT) {
        audit.add(r.record);
        continue;
      }
      if (r.company === null) {
        await accounts.add(r.table, r.record);
        // A Company always has its folder (companies/companies.ts makes it before the row).
        if (r.table === `accounts.${companySpec.name}`)
          mkdirSync(companyDataDir(dir, companySpec.id(r.record as never)), { recursive: true, mode: 0o700 });
        continue;
      }
      if (open.company?.id !== r.company) {
        await closeCompany();
        mkdirSync(companyDataDir(dir, r.company), { recursive: true, mode: 0o700 });
        open.company = { id: r.company, runtime: null, events: null };
      }
      const company = open.company;
      const folder = companyDataDir(dir, r.company);
      if (r.table === EVENTS) {
        company.events ??= createSegmentImporter(folder);
        company.events.add(r.record as unknown as EventRow);
      } else {
        company.runtime ??= await openRuntime(folder);
        await company.runtime.add(r.table, r.record);
      }
    }
    await closeCompany();
    audit.finish(importEntry);
  } finally {
    await closeCompany().catch(() => {});
    await accounts.close();
  }
  syncFolder(join(dir, 'companies'));
  syncFolder(dir);
}

interface CompanyLoad {
  id: string;
  runtime: SpaceLoader | null;
  events: SegmentImporter | null;
}

async function openRuntime(folder: string): Promise<SpaceLoader> {
  const space = await openJournalSpace(folder, { name: 'runtime' });
  return SpaceLoader.overTables(space, runtimeTablesOf(space), 'runtime.');
}

function writeSecret(dir: string, name: string, value: string): void {
  // 'wx': an archive naming one secret twice is refused rather than one value silently winning.
  writeFileSync(join(dir, SECRET_FILES[name]!), `${value}\n`, { mode: 0o600, flag: 'wx' });
}
