import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which record each local name became, for the kinds the daemon gives no natural key (sessions and
 * configured events have no name): kept in the data folder, so `--reset` forgets it with the data.
 * Users, Companies, keys and agents are found again by e-mail or name, without this file.
 */
export interface SeedState {
  ids: Record<string, string>;
}

export const SEED_STATE_FILE = 'dev-seed.json';

export function readSeedState(dataDir: string): SeedState {
  try {
    const parsed = JSON.parse(readFileSync(join(dataDir, SEED_STATE_FILE), 'utf8')) as SeedState;
    return { ids: typeof parsed.ids === 'object' && parsed.ids ? parsed.ids : {} };
  } catch {
    return { ids: {} };
  }
}

export function writeSeedState(dataDir: string, state: SeedState): void {
  const file = join(dataDir, SEED_STATE_FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
