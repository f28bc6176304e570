import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { nodeSegmentIo, type SegmentIo } from '../../../../daemon/store/disk/segment-io.js';
import type { Space, TableSpec } from '../../../../daemon/store/engine/types.js';
import { tempDir } from '../../../helpers/temp-dir.js';

/** Shared by the journal tests: a table, a disk that counts and fails on demand, crash copies. */
export interface Person {
  id: string;
  email: string;
  team: string | null;
}
export const people: TableSpec<Person> = {
  name: 'people',
  id: (p) => p.id,
  indexes: { email: (p) => p.email, team: (p) => p.team },
};

export const person = (n: number, team: string | null = `t${n % 3}`): Person => ({
  id: `p${n}`,
  email: `p${n}@x`,
  team,
});

/** Every record of the table, sorted by id, for comparing two states. */
export function contents(space: Space): Person[] {
  return [...space.define(people).all()].sort((a, b) => a.id.localeCompare(b.id));
}

export interface TestDisk extends SegmentIo {
  counts: { writes: number; syncs: number };
  /** The next N syncs fail (EIO); with `truncateToo`, taking the batch back fails as well. */
  failSyncs(n: number, truncateToo?: boolean): void;
}

export function testDisk(): TestDisk {
  let failing = 0;
  let truncateFails = false;
  const disk: TestDisk = {
    counts: { writes: 0, syncs: 0 },
    failSyncs(n, truncateToo = false) {
      failing = n;
      truncateFails = truncateToo;
    },
    write: (fd, data, position) => (disk.counts.writes++, nodeSegmentIo.write(fd, data, position)),
    async sync(fd) {
      disk.counts.syncs++;
      if (failing > 0) {
        failing--;
        throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      }
      return nodeSegmentIo.sync(fd);
    },
    async truncate(fd, size) {
      if (truncateFails) throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' });
      return nodeSegmentIo.truncate(fd, size);
    },
  };
  return disk;
}

/**
 * The files of a folder as a `kill -9` would leave them: copied while the space is still open.
 * A background snapshot may rename itself into place and delete the segments it covers while the
 * copy runs, so the segments are copied first (one already deleted is skipped) and the snapshot
 * files last: a segment missing from the copy was deleted after the new snapshot went in place,
 * so the snapshot copied after it covers it — as on the disk at any instant. A plain recursive
 * copy could pair the old snapshot with a segment deleted meanwhile (a state no crash leaves),
 * or fail on the vanished file (it did, on a loaded machine).
 */
export function crashCopy(dir: string): string {
  const copy = tempDir('journal-crash');
  copyInCrashOrder(dir, copy);
  return copy;
}

function copyInCrashOrder(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  const entries = readdirSync(from, { withFileTypes: true });
  const last = (name: string) => name.startsWith('snapshot');
  for (const entry of [...entries.filter((e) => !last(e.name)), ...entries.filter((e) => last(e.name))]) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) copyInCrashOrder(source, join(to, entry.name));
    else {
      try {
        copyFileSync(source, join(to, entry.name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  }
}

export const filesIn = (folder: string) => readdirSync(folder).sort();
export const journalFolder = (dir: string) => join(dir, 'journal');
