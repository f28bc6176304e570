import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../clock.js';
import { openEventLog } from '../store/event-log/index.js';
import { companyDataDir } from '../company/index.js';
import { companySpec } from '../store/accounts/tables.js';
import { openJournalSpace } from '../store/journal/index.js';
import { findRetiredLayout, refuseRetiredLayout } from '../store/old-layouts.js';
import { runtimeTablesOf } from './runtime-table-map.js';
import {
  ARCHIVE_ACCOUNT_SPECS,
  EVENTS,
  RUNTIME_TABLE_NAMES,
  SECRET_FILES,
  SECRETS,
  type ArchiveRecord,
} from './archive-tables.js';
import { readFolderAudit } from './audit-transfer.js';

/**
 * Everything a data folder holds, as archive records: secrets, every account table, then each
 * Company's runtime tables and event log. The caller holds the folder's daemon lock, so nothing
 * writes while this reads. Each journal is opened as the daemon opens it and closed without a
 * write of its own.
 */
export async function* readDataFolder(dir: string): AsyncGenerator<ArchiveRecord> {
  refuseRetiredLayout(findRetiredLayout(dir));
  for (const [name, file] of Object.entries(SECRET_FILES).sort()) {
    const path = join(dir, file);
    if (existsSync(path))
      yield { table: SECRETS, company: null, record: { name, value: readFileSync(path, 'utf8').trim() } };
  }
  const companies = new Set<string>();
  if (existsSync(join(dir, 'accounts'))) {
    const space = await openJournalSpace(dir, { name: 'accounts' });
    try {
      for (const spec of ARCHIVE_ACCOUNT_SPECS) {
        const table = space.define(spec);
        for (const record of table.all()) {
          if (spec.name === companySpec.name) companies.add(spec.id(record));
          yield { table: `accounts.${spec.name}`, company: null, record: record as Record<string, unknown> };
        }
      }
    } finally {
      await space.close();
    }
  }
  // A folder under companies/ without its row (a create that crashed half-way) is carried too: nothing is dropped.
  const folders = join(dir, 'companies');
  if (existsSync(folders)) for (const id of readdirSync(folders)) companies.add(id);
  for (const company of [...companies].sort()) yield* readCompany(companyDataDir(dir, company), company);
  yield* readFolderAudit(dir);
}

async function* readCompany(dir: string, company: string): AsyncGenerator<ArchiveRecord> {
  if (existsSync(join(dir, 'runtime'))) {
    const space = await openJournalSpace(dir, { name: 'runtime' });
    try {
      const tables = runtimeTablesOf(space);
      for (const name of RUNTIME_TABLE_NAMES)
        for (const record of tables.get(name)?.all() ?? [])
          yield { table: `runtime.${name}`, company, record: record as Record<string, unknown> };
    } finally {
      await space.close();
    }
  }
  if (!existsSync(join(dir, 'events'))) return;
  // No index snapshot is written at close: an export leaves the folder as it found it.
  const log = await openEventLog(dir, { clock: systemClock, snapshot: false });
  try {
    let since_id: string | undefined;
    do {
      const page = await log.query({ since_id, limit: 1000 });
      for (const row of page.events)
        yield { table: EVENTS, company, record: row as unknown as Record<string, unknown> };
      since_id = page.next_since_id ?? undefined;
    } while (since_id);
  } finally {
    await log.close();
  }
}
