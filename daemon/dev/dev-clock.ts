import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { CLOCK_OFFSET_FILE, readClockOffset } from '../../shared/clock-offset.js';
import { join } from 'node:path';
import { movableClock, type Clock, type MovableClock } from '../clock.js';
import type { Config } from '../config.js';
import { isLoopback } from '../http/host-guard.js';

/**
 * Why this daemon's clock may not move, or null when it may. Moving time ends every session and
 * code at once and fires schedules early, for every user: fine on the developer's own loopback
 * daemon, never on a shared deployment — team mode always refuses (its daemons share one
 * database but not a clock), a non-loopback bind only with `--movable-clock`.
 */
export function clockMoveRefusal(config: Pick<Config, 'databaseUrl' | 'host' | 'movableClock'>): string | null {
  if (config.databaseUrl) return 'team mode: the daemons of a deployment share one database, not one clock';
  if (!isLoopback(config.host) && !config.movableClock)
    return `this daemon binds ${config.host}, not loopback: start it with --movable-clock to allow moving its clock`;
  return null;
}

/** The clock of a daemon on this data folder: movable (with its saved offset) where allowed, else `base` itself. */
export function openDevClock(config: Config, base: Clock): MovableClock | null {
  if (clockMoveRefusal(config)) return null;
  return movableClock(base, readClockOffset(config.dataDir));
}

/** Written before the answer: a restart keeps the clock where the developer put it. */
export function saveClockOffset(dataDir: string, offsetMs: number): void {
  const file = join(dataDir, CLOCK_OFFSET_FILE);
  if (offsetMs === 0) {
    rmSync(file, { force: true });
    return;
  }
  writeFileSync(`${file}.tmp`, JSON.stringify({ offset_ms: offsetMs }) + '\n', { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
