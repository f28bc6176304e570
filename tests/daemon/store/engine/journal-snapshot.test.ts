import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeSegmentIo, type SegmentIo } from '../../../../daemon/store/disk/segment-io.js';
import { openJournalSpace } from '../../../../daemon/store/journal/index.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { contents, crashCopy, filesIn, journalFolder, people, person, type Person } from './journal-fixtures.js';

/** Snapshots and compaction: the journal folded into one file, the covered segments deleted. */

test('a clean close leaves one snapshot and no journal; the next open reads it', async () => {
  const dir = tempDir('journal');
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  for (let i = 0; i < 5; i++) await space.write((tx) => tx.put(t, person(i)));
  await space.write((tx) => tx.remove(t, 'p2'));
  await space.close();
  assert.equal(filesIn(journalFolder(dir)), ['snapshot.jsonl']);
  const again = await openJournalSpace(dir);
  assert.equal(again.recovery, []);
  assert.equal(
    contents(again).map((p) => p.id),
    ['p0', 'p1', 'p3', 'p4'],
  );
  assert.is(again.define(people).first('email', 'p3@x')?.id, 'p3');
  assert.is(again.stats().entries_since_snapshot, 0);
  await again.close();
});

test('a periodic snapshot while the space is open; a crash start replays only the entries after it', async () => {
  const dir = tempDir('journal');
  const space = await openJournalSpace(dir, { snapshotBytes: 2000 });
  const t = space.define(people);
  for (let i = 0; i < 40; i++) await space.write((tx) => tx.put(t, person(i)));
  // The first snapshot runs in the background while the writes go on; wait for it, not for a while.
  await space.idle();
  assert.ok(space.stats().snapshots >= 1, `${space.stats().snapshots} snapshots`);
  for (let i = 40; i < 45; i++) await space.write((tx) => tx.put(t, person(i)));
  const crashed = await openJournalSpace(crashCopy(dir), { snapshotBytes: 2000 });
  assert.ok(
    crashed.recovery.every((note) => /snapshot\.jsonl\.tmp: removed/.test(note)),
    crashed.recovery.join('\n'),
  );
  assert.equal(contents(crashed), contents(space));
  assert.ok(
    crashed.stats().entries_since_snapshot < 45,
    `replayed ${crashed.stats().entries_since_snapshot} entries of 45`,
  );
  await crashed.close();
  await space.close();
});

test('compaction while writing: puts, replacements and removes from many writers all survive, crash or not', async () => {
  const dir = tempDir('journal');
  const space = await openJournalSpace(dir, { snapshotBytes: 1500, segmentBytes: 1000 });
  const t = space.define(people);
  const model = new Map<string, Person>();
  for (let round = 0; round < 20; round++) {
    const writes = Array.from({ length: 15 }, (_, i) => {
      const n = (round * 7 + i * 3) % 60;
      if ((round + i) % 5 === 0) {
        model.delete(`p${n}`);
        return space.write((tx) => tx.remove(t, `p${n}`));
      }
      const p = person(n, `r${round}`);
      model.set(p.id, p);
      return space.write((tx) => tx.put(t, p));
    });
    await Promise.all(writes);
  }
  const expected = [...model.values()].sort((a, b) => a.id.localeCompare(b.id));
  assert.equal(contents(space), expected);
  assert.ok(space.stats().snapshots >= 2, `${space.stats().snapshots} snapshots`);
  const crashed = await openJournalSpace(crashCopy(dir));
  // A crash may catch a snapshot half-written: its .tmp is removed, nothing else to report.
  assert.ok(
    crashed.recovery.every((note) => /snapshot\.jsonl\.tmp: removed/.test(note)),
    crashed.recovery.join('\n'),
  );
  assert.equal(contents(crashed), expected);
  await crashed.close();
  await space.close();
  const reopened = await openJournalSpace(dir);
  assert.equal(contents(reopened), expected);
  assert.equal(
    reopened
      .define(people)
      .lookup('team', 'r19')
      .map((p) => p.id)
      .sort(),
    expected.filter((p) => p.team === 'r19').map((p) => p.id),
  );
  await reopened.close();
});

test('a snapshot captured with a write that then fails is abandoned, and memory and disk agree', async () => {
  const dir = tempDir('journal');
  let armed = false;
  let syncs = 0;
  let failAt = -1;
  let late: Promise<unknown> | null = null;
  const setup = await openJournalSpace(dir);
  const t0 = setup.define(people);
  await setup.write((tx) => tx.put(t0, person(0)));
  await setup.close();
  const io: SegmentIo = {
    ...nodeSegmentIo,
    async write(fd, data, position) {
      if (armed) {
        armed = false;
        // Joins the next batch while this one is in flight; its sync will fail.
        late = space.write((tx) => tx.put(t, person(99)));
        failAt = syncs + 1;
      }
      return nodeSegmentIo.write(fd, data, position);
    },
    async sync(fd) {
      if (syncs++ === failAt) throw new Error('EIO: i/o error, fdatasync');
      return nodeSegmentIo.sync(fd);
    },
  };
  const space = await openJournalSpace(dir, { io, snapshotBytes: 1 });
  const t = space.define(people);
  armed = true;
  await space.write((tx) => tx.put(t, person(1)));
  const outcome = await late!.then(
    () => 'acknowledged',
    () => 'rejected',
  );
  assert.is(outcome, 'rejected');
  await space.idle();
  assert.is(existsSync(join(journalFolder(dir), 'snapshot.jsonl.tmp')), false, 'the abandoned snapshot is removed');
  assert.is(t.get('p99'), undefined);
  const crashed = await openJournalSpace(crashCopy(dir));
  assert.equal(contents(crashed), [person(0), person(1)]);
  await crashed.close();
  await space.write((tx) => tx.put(t, person(2)));
  await space.close();
  const reopened = await openJournalSpace(dir);
  assert.equal(contents(reopened), [person(0), person(1), person(2)]);
  await reopened.close();
});

test('all() and index order survive a snapshot and a replay on top of it', async () => {
  const dir = tempDir('journal');
  let space = await openJournalSpace(dir);
  let t = space.define(people);
  const order = () => [...t.all()].map((p) => p.id);
  for (const n of [3, 1, 2]) await space.write((tx) => tx.put(t, person(n, 'red')));
  await space.write((tx) => tx.put(t, { ...person(1, 'red'), email: 'new@x' }));
  await space.write((tx) => tx.remove(t, 'p3'));
  await space.write((tx) => tx.put(t, person(3, 'red')));
  assert.equal(order(), ['p1', 'p2', 'p3']);
  await space.close(); // snapshot
  space = await openJournalSpace(dir);
  t = space.define(people);
  assert.equal(order(), ['p1', 'p2', 'p3']);
  await space.write((tx) => tx.put(t, person(0, 'red')));
  await space.write((tx) => tx.put(t, { ...person(2, 'red'), email: 'two@x' }));
  const crashed = await openJournalSpace(crashCopy(dir)); // snapshot + replay
  const c = crashed.define(people);
  assert.equal(
    [...c.all()].map((p) => p.id),
    ['p1', 'p2', 'p3', 'p0'],
  );
  assert.equal(
    c.lookup('team', 'red').map((p) => p.id),
    t.lookup('team', 'red').map((p) => p.id),
  );
  await crashed.close();
  await space.close();
});

test('a second handle that only read does not compact at close under the one still writing', async () => {
  const dir = tempDir('journal');
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  await space.write((tx) => tx.put(t, person(1)));
  const reader = await openJournalSpace(dir);
  assert.equal(contents(reader), [person(1)]);
  await reader.close();
  assert.equal(filesIn(journalFolder(dir)), ['000001.jsonl']);
  await space.write((tx) => tx.put(t, person(2)));
  const crashed = await openJournalSpace(crashCopy(dir));
  assert.equal(contents(crashed), [person(1), person(2)]);
  await crashed.close();
  await space.close();
});

test('a leftover .tmp (a snapshot a crash interrupted) is removed at open and changes nothing', async () => {
  const dir = tempDir('journal');
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  await space.write((tx) => tx.put(t, person(1)));
  await space.close();
  writeFileSync(join(journalFolder(dir), 'snapshot.jsonl.tmp'), '{"snapshot":1,"seq":99,"segm');
  const again = await openJournalSpace(dir);
  assert.is(existsSync(join(journalFolder(dir), 'snapshot.jsonl.tmp')), false);
  assert.match(again.recovery.join('\n'), /snapshot\.jsonl\.tmp: removed/);
  assert.equal(contents(again), [person(1)]);
  await again.close();
});

test.run();
