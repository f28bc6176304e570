import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSegments, segmentPath } from '../../../../daemon/store/disk/segment-io.js';
import { openJournalSpace } from '../../../../daemon/store/journal/index.js';
import { contents, crashCopy, journalFolder, people, person, type Person } from './journal-fixtures.js';
import { tempDir } from '../../../helpers/temp-dir.js';

/**
 * A crash at every step of a compaction: the folder is left as a crash at that instant would
 * leave it, then opened. Every step must open with every write, report nothing but a removed
 * leftover, and go on writing and compacting normally.
 *
 * `before` is a journal with an older snapshot and several segments after it (no close: as a
 * crash leaves it); `after` is the same folder once a compaction completed (opened and closed).
 * The steps in between are built from those two, in the order compaction.ts takes them.
 */
test('a crash at any step of a compaction loses nothing and needs no repair', async () => {
  const dir = tempDir('journal');
  const model = new Map<string, Person>();
  let space = await openJournalSpace(dir, { segmentBytes: 400 });
  let t = space.define(people);
  for (let i = 0; i < 10; i++) await put(i, 'first');
  await space.close(); // the older snapshot
  space = await openJournalSpace(dir, { segmentBytes: 400, snapshotBytes: 1e9 });
  t = space.define(people);
  for (let i = 5; i < 25; i++) await put(i, 'second');
  await space.write((tx) => tx.remove(t, 'p7'));
  model.delete('p7');
  const expected = [...model.values()].sort((a, b) => a.id.localeCompare(b.id));

  const before = crashCopy(dir);
  const after = crashCopy(dir);
  // A handle compacts at close only if it wrote: re-put one record unchanged.
  const compactor = await openJournalSpace(after);
  const same = compactor.define(people);
  await compactor.write((tx) => tx.put(same, expected[0]!));
  await compactor.close();
  const newSnapshot = readFileSync(join(journalFolder(after), 'snapshot.jsonl'));
  const segments = listSegments(journalFolder(before));
  assert.ok(segments.length >= 3, `${segments.length} segments`);

  const steps: Record<string, (folder: string) => void> = {
    'nothing written yet': () => undefined,
    'snapshot .tmp half written': (f) =>
      writeFileSync(join(f, 'snapshot.jsonl.tmp'), newSnapshot.subarray(0, newSnapshot.length >> 1)),
    'snapshot .tmp complete, not renamed': (f) => writeFileSync(join(f, 'snapshot.jsonl.tmp'), newSnapshot),
    'snapshot renamed into place, no segment deleted': (f) => writeFileSync(join(f, 'snapshot.jsonl'), newSnapshot),
    'snapshot in place, the first segment deleted': (f) => {
      writeFileSync(join(f, 'snapshot.jsonl'), newSnapshot);
      rmSync(segmentPath(f, segments[0]!));
    },
    'snapshot in place, all but the last segment deleted': (f) => {
      writeFileSync(join(f, 'snapshot.jsonl'), newSnapshot);
      for (const n of segments.slice(0, -1)) rmSync(segmentPath(f, n));
    },
    'compaction complete': (f) => {
      for (const n of segments) rmSync(segmentPath(f, n));
      copyFileSync(join(journalFolder(after), 'snapshot.jsonl'), join(f, 'snapshot.jsonl'));
    },
  };
  for (const [step, leave] of Object.entries(steps)) {
    const folder = crashCopy(before);
    leave(journalFolder(folder));
    const opened = await openJournalSpace(folder, { segmentBytes: 400 });
    assert.ok(
      opened.recovery.every((note) => /\.tmp: removed/.test(note)),
      `${step}: ${opened.recovery.join('; ')}`,
    );
    assert.equal(contents(opened), expected, step);
    const table = opened.define(people);
    await opened.write((tx) => tx.put(table, person(100, step)));
    await opened.close();
    const reopened = await openJournalSpace(folder);
    assert.equal(reopened.recovery, [], step);
    assert.equal(
      contents(reopened),
      [...expected, person(100, step)].sort((a, b) => a.id.localeCompare(b.id)),
      step,
    );
    await reopened.close();
  }
  await space.close();

  async function put(n: number, team: string) {
    const p = person(n, team);
    model.set(p.id, p);
    await space.write((tx) => tx.put(t, p));
  }
});

test.run();
