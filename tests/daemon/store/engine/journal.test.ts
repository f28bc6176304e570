import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openJournalSpace } from '../../../../daemon/store/journal/index.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { contents, crashCopy, filesIn, journalFolder, people, person, testDisk } from './journal-fixtures.js';

/** The JSON Lines journal backend: group commit, recovery, snapshots. Real files in temp folders. */

test('concurrent writes share syncs (group commit), and each resolves only once on disk', async () => {
  const dir = tempDir('journal');
  const io = testDisk();
  const space = await openJournalSpace(dir, { io });
  const t = space.define(people);
  await Promise.all(Array.from({ length: 100 }, (_, i) => space.write((tx) => tx.put(t, person(i)))));
  assert.ok(io.counts.syncs <= 3, `100 concurrent writes took ${io.counts.syncs} syncs`);
  assert.is(space.stats().entries, 100);
  // Each acknowledged write is on disk: a crash right now loses none of them.
  const after = await openJournalSpace(crashCopy(dir));
  assert.is(after.define(people).size, 100);
  await after.close();
  await space.close();
});

test('files are 0600 and folders 0700', async () => {
  const dir = tempDir('journal');
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  await space.write((tx) => tx.put(t, person(1)));
  await space.close();
  assert.is(statSync(journalFolder(dir)).mode & 0o777, 0o700);
  for (const name of filesIn(journalFolder(dir)))
    assert.is(statSync(join(journalFolder(dir), name)).mode & 0o777, 0o600, name);
});

test('a torn last line is cut at open, reported, and the journal goes on cleanly', async () => {
  const dir = tempDir('journal');
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  for (let i = 0; i < 3; i++) await space.write((tx) => tx.put(t, person(i)));
  const crashed = crashCopy(dir);
  const segment = join(journalFolder(crashed), '000001.jsonl');
  const intact = statSync(segment).size;
  appendFileSync(segment, '{"seq":4,"changes":[{"op":"put","table":"people","id":"p3","rec');
  let again = await openJournalSpace(crashed);
  assert.is(again.recovery.length, 1);
  assert.match(again.recovery[0]!, /000001\.jsonl: cut an unfinished last line/);
  assert.is(statSync(segment).size, intact);
  const r = again.define(people);
  assert.equal(contents(again), [person(0), person(1), person(2)]);
  await again.write((tx) => tx.put(r, person(3)));
  again = await reopenAfterCrash(crashed);
  assert.equal(again.recovery, []);
  assert.equal(
    contents(again).map((p) => p.id),
    ['p0', 'p1', 'p2', 'p3'],
  );
  await again.close();
  await space.close();
});

test('a corrupt line in the middle is skipped and reported; the writes around it are kept', async () => {
  const dir = tempDir('journal');
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  for (let i = 0; i < 4; i++) await space.write((tx) => tx.put(t, person(i)));
  const crashed = crashCopy(dir);
  const segment = join(journalFolder(crashed), '000001.jsonl');
  const lines = readFileSync(segment, 'utf8').split('\n');
  lines[1] = '{"seq":2,"changes":[{"op":"put","tab\u0000le":"people"';
  writeFileSync(segment, lines.join('\n'));
  const again = await openJournalSpace(crashed);
  assert.equal(again.recovery.length, 1);
  assert.match(again.recovery[0]!, /000001\.jsonl line 2 \(byte \d+\): skipped a corrupt entry/);
  assert.equal(
    contents(again).map((p) => p.id),
    ['p0', 'p2', 'p3'],
  );
  await again.close();
  await space.close();
});

test('a failed write is not acknowledged and is taken back in memory, with the writes queued behind it', async () => {
  const dir = tempDir('journal');
  const io = testDisk();
  const space = await openJournalSpace(dir, { io });
  const t = space.define(people);
  await space.write((tx) => tx.put(t, person(1, 'red')));
  io.failSyncs(1);
  const failed = space.write((tx) => {
    tx.put(t, person(1, 'blue'));
    tx.put(t, person(2));
  });
  // Reads what the failing write put: it must fail with it.
  const dependent = space.write((tx) => tx.put(t, { ...t.get('p2')!, team: 'green' }));
  const results = await Promise.allSettled([failed, dependent]);
  assert.equal(
    results.map((r) => r.status),
    ['rejected', 'rejected'],
  );
  assert.match(String((results[0] as PromiseRejectedResult).reason), /could not write to disk/);
  assert.equal(t.get('p1'), person(1, 'red'));
  assert.is(t.get('p2'), undefined);
  assert.is(t.count('team', 'blue'), 0);
  assert.is(t.first('team', 'red')?.id, 'p1');
  await space.write((tx) => tx.put(t, person(3)));
  const crashed = await openJournalSpace(crashCopy(dir));
  assert.equal(crashed.recovery, []);
  assert.equal(contents(crashed), contents(space), 'after a crash the disk holds exactly what memory held');
  await crashed.close();
  await space.close();
  const reopened = await openJournalSpace(dir);
  assert.equal(contents(reopened), [person(1, 'red'), person(3)]);
  await reopened.close();
});

test('when a failed write cannot even be taken back on disk, the space refuses further writes', async () => {
  const dir = tempDir('journal');
  const io = testDisk();
  const space = await openJournalSpace(dir, { io });
  const t = space.define(people);
  await space.write((tx) => tx.put(t, person(1)));
  io.failSyncs(1, true);
  assert.match(await failure(space.write((tx) => tx.put(t, person(2)))), /could not write to disk/);
  assert.match(await failure(space.write((tx) => tx.put(t, person(3)))), /refuses further writes/);
  assert.equal(contents(space), [person(1)]);
  await space.close();
  const reopened = await openJournalSpace(dir);
  assert.ok(reopened.define(people).get('p1'));
  assert.is(reopened.define(people).get('p3'), undefined);
  await reopened.close();
});

async function failure(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => assert.unreachable('the write was acknowledged') as never,
    (err: Error) => err.message,
  );
}

async function reopenAfterCrash(dir: string) {
  return openJournalSpace(crashCopy(dir));
}

test.run();
