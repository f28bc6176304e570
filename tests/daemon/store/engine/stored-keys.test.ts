import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openJournalSpace } from '../../../../daemon/store/journal/index.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { contents, crashCopy, filesIn, journalFolder, people, person } from './journal-fixtures.js';

/**
 * Snapshot lines carry each record's index keys, so an open files records without parsing them;
 * a record is read from the snapshot file the first time it is used (docs/storage.md).
 */

const snapshotPath = (dir: string) => join(journalFolder(dir), 'snapshot.jsonl');
const linesOf = (dir: string) => readFileSync(snapshotPath(dir), 'utf8').split('\n').slice(0, -1);

async function written(n: number): Promise<string> {
  const dir = tempDir('stored-keys');
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  await space.write((tx) => {
    for (let i = 0; i < n; i++) tx.put(t, person(i, i % 2 ? 'odd' : null));
  });
  await space.close();
  return dir;
}

test('each line carries its keys in index order (empty ones null), the header the key functions fingerprint', async () => {
  const dir = await written(2);
  const [header, p0, p1] = linesOf(dir).map((l) => JSON.parse(l));
  assert.type(header.keys.people, 'string');
  assert.equal(p0, { table: 'people', id: 'p0', keys: ['p0@x', null], record: person(0, null) });
  assert.equal(p1.keys, ['p1@x', 'odd']);
});

test('records are read on first use: a damaged one is found then, left out with its index entries, and reported', async () => {
  const dir = await written(3);
  const file = snapshotPath(dir);
  // Damage p1's record only: its line still starts with a readable table, id and keys.
  writeFileSync(file, readFileSync(file, 'utf8').replace('"record":{"id":"p1"', '"record":{"id":"p1"!'));
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  assert.equal(space.recovery, [], 'nothing read yet, nothing to report');
  assert.is(t.size, 3);
  assert.is(t.first('email', 'p0@x')?.id, 'p0');
  assert.is(t.get('p1'), undefined);
  assert.is(t.first('email', 'p1@x'), undefined);
  assert.is(t.count('team', 'odd'), 0);
  assert.equal(space.recovery, ['snapshot.jsonl: the record people/p1 no longer parses; it was left out']);
  assert.equal(
    contents(space).map((p) => p.id),
    ['p0', 'p2'],
  );
  await space.close();
});

test('a snapshot of the release before the keys (no keys on its lines) opens, and the next close writes the keys', async () => {
  const dir = tempDir('stored-keys');
  const folder = journalFolder(dir);
  const old = [
    '{"snapshot":1,"seq":3,"segment":1,"tables":{"people":2},"created_at":"2026-11-20T08:00:00.000Z"}',
    '{"table":"people","id":"p0","record":{"id":"p0","email":"p0@x","team":"red"}}',
    '{"table":"people","id":"p1","record":{"id":"p1","email":"p1@x","team":"red"}}',
    '{"end":true,"records":2}',
  ];
  await (await openJournalSpace(dir)).close();
  writeFileSync(join(folder, 'snapshot.jsonl'), `${old.join('\n')}\n`);
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  assert.equal(space.recovery, []);
  assert.equal(
    t.lookup('team', 'red').map((p) => p.id),
    ['p0', 'p1'],
  );
  assert.is(t.first('email', 'p1@x')?.id, 'p1');
  await space.write((tx) => tx.put(t, person(2, 'red')));
  await space.close();
  assert.equal(JSON.parse(linesOf(dir)[1]!).keys, ['p0@x', 'red']);
  const again = await openJournalSpace(dir);
  assert.equal(
    again
      .define(people)
      .lookup('team', 'red')
      .map((p) => p.id),
    ['p0', 'p1', 'p2'],
  );
  await again.close();
});

test('keys written by other key functions (another fingerprint) are recomputed, not trusted', async () => {
  const dir = await written(2);
  const file = snapshotPath(dir);
  const [header, ...rest] = linesOf(dir);
  const h = JSON.parse(header!);
  h.keys.people = 'written-by-another-release';
  // Keys that do not match the records: only a recomputation finds p0 under its e-mail.
  const lines = rest.map((l) => l.replace('"keys":["p0@x"', '"keys":["stale@x"'));
  writeFileSync(file, `${[JSON.stringify(h), ...lines].join('\n')}\n`);
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  assert.is(t.first('email', 'p0@x')?.id, 'p0');
  assert.is(t.first('email', 'stale@x'), undefined);
  await space.close();
});

test('first-put order holds when records loaded unread move into shared keys and new ones arrive', async () => {
  const dir = await written(6); // p0…p5; odd ones in team 'odd', even ones in none
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  await space.write((tx) => tx.put(t, person(6, 'odd')));
  await space.write((tx) => tx.put(t, person(4, 'odd'))); // a loaded record moves into the shared key
  await space.write((tx) => tx.put(t, person(0, 'even')));
  await space.write((tx) => tx.put(t, person(2, 'even')));
  assert.equal(
    t.lookup('team', 'odd').map((p) => p.id),
    ['p1', 'p3', 'p4', 'p5', 'p6'],
  );
  assert.equal(
    t.lookup('team', 'even').map((p) => p.id),
    ['p0', 'p2'],
  );
  assert.equal(
    [...t.all()].map((p) => p.id),
    ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6'],
  );
  await space.close();
});

test('a close after a small write keeps the snapshot; a snapshot after the open copies unread lines as they were', async () => {
  const dir = await written(200);
  const before = statSync(snapshotPath(dir)).ino;
  let space = await openJournalSpace(dir);
  let t = space.define(people);
  await space.write((tx) => tx.put(t, person(1000)));
  await space.close();
  assert.is(statSync(snapshotPath(dir)).ino, before, 'one small write does not rewrite the snapshot');
  assert.equal(filesIn(journalFolder(dir)).length, 2, 'the journal holds the write');
  const lines = linesOf(dir);
  // Now a periodic snapshot while most records are still unread: their lines go over unchanged.
  space = await openJournalSpace(dir, { snapshotEntries: 1 });
  t = space.define(people);
  assert.is(t.get('p1000')?.email, 'p1000@x');
  await space.write((tx) => tx.put(t, person(7, 'seven')));
  await space.idle();
  assert.is(space.stats().snapshots, 1, 'the write after the open took a periodic snapshot');
  assert.is(t.get('p8')?.email, 'p8@x', 'read from the file it was opened from, after the new one replaced it');
  const after = linesOf(dir);
  assert.ok(after.includes(lines.find((l) => l.includes('"id":"p9"'))!));
  // As kill -9 would leave it now: the new snapshot (with copied lines) and the journal after it.
  const crashed = await openJournalSpace(crashCopy(dir));
  assert.equal(crashed.recovery, []);
  assert.equal(contents(crashed), contents(space));
  await crashed.close();
  await space.close();
  const again = await openJournalSpace(dir);
  assert.equal(contents(again).length, 201);
  assert.is(again.define(people).first('team', 'seven')?.id, 'p7');
  await again.close();
});

test.run();
