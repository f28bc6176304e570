import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a local daemon keeps how far `svc dev clock` moved it: gone with the folder (`svc dev seed --reset`). */
export const CLOCK_OFFSET_FILE = 'clock-offset.json';

/** The saved offset of a data folder's clock in milliseconds (0 when none, or unreadable). */
export function readClockOffset(dataDir: string): number {
  try {
    const saved = JSON.parse(readFileSync(join(dataDir, CLOCK_OFFSET_FILE), 'utf8')) as { offset_ms?: unknown };
    const offset = Number(saved.offset_ms);
    return Number.isFinite(offset) && offset > 0 ? offset : 0;
  } catch {
    return 0;
  }
}
