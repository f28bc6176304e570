import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Files of layouts this release no longer reads: the one-document-per-room JSON files and the
 * single-file journal of development builds that came before the segmented journals. Nothing
 * released wrote them, so no importer is kept; but a folder holding one must not open as if it
 * were empty (the accounts in it would look lost, and the next write would start a new journal
 * beside them), so it is refused with the file's name.
 */
const ACCOUNT_FILES = ['accounts.json', 'outbox.json', 'companies.json', 'keys.json', 'factors.json', 'accounts.jsonl'];
const COMPANY_FILES = [
  'runtime.json',
  'firings.json',
  'schedule-ticks.json',
  'channels.json',
  'questions.json',
  'runtime.jsonl',
];

/** The first file of a retired layout in the data folder or one of its Company folders, or null. */
export function findRetiredLayout(dataDir: string): string | null {
  const account = ACCOUNT_FILES.map((name) => join(dataDir, name)).find(existsSync);
  if (account) return account;
  const companies = join(dataDir, 'companies');
  if (!existsSync(companies)) return null;
  for (const id of readdirSync(companies)) {
    const file = retiredCompanyFile(join(companies, id));
    if (file) return file;
  }
  return null;
}

/** The first file of a retired layout in one Company folder, or null. */
export function retiredCompanyFile(companyDir: string): string | null {
  return COMPANY_FILES.map((name) => join(companyDir, name)).find(existsSync) ?? null;
}

/** Throws, naming the file, when `file` (a retired layout's) is there; the folder is left as it is. */
export function refuseRetiredLayout(file: string | null): void {
  if (!file) return;
  throw new Error(
    `${file} is in a layout this release does not read (a development build's, from before the journal format): ` +
      'move that data folder aside and start on an empty one (docs/storage.md, "Folders this release does not read")',
  );
}
