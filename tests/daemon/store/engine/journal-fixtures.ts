import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { nodeSegmentIo, type SegmentIo } from '../../../../daemon/store/disk/segment-io.js';
import type { Space, TableSpec } from '../../../../daemon/store/engine/types.js';

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

export { crashCopy } from '../../../helpers/crash-copy.js';

export const filesIn = (folder: string) => readdirSync(folder).sort();
export const journalFolder = (dir: string) => join(dir, 'journal');
