import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forEachLine } from '../../../../daemon/store/journal/line-stream.js';
import { openJournalSpace } from '../../../../daemon/store/journal/index.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { contents, journalFolder, people, person } from './journal-fixtures.js';

/** The snapshot is read a piece at a time (1 MiB): what a whole-file read saw, this must see too. */

const linesOf = (text: string | Buffer) => {
  const file = join(tempDir('lines'), 'f');
  writeFileSync(file, text);
  const out: string[] = [];
  forEachLine(file, (line) => out.push(line));
  return out;
};

test('lines across piece boundaries, longer than a piece, multi-byte characters and a last line without newline', () => {
  const long = 'é'.repeat(1_500_000); // 3 MB of two-byte characters: longer than a piece, split mid-way
  const many = Array.from({ length: 40_000 }, (_, i) => `line ${i} ${'x'.repeat(i % 97)} ✓`);
  const text = [...many, long, '', 'last'].join('\n');
  assert.equal(linesOf(text), text.split('\n'));
  assert.equal(linesOf('one\ntwo\n'), ['one', 'two']);
  assert.equal(linesOf(''), []);
  assert.is(
    forEachLine(join(tempDir('lines'), 'missing'), () => {}),
    false,
  );
});

async function snapshotOf(n: number): Promise<{ dir: string; file: string; lines: string[] }> {
  const dir = tempDir('journal');
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  await space.write((tx) => {
    for (let i = 0; i < n; i++) tx.put(t, person(i, i % 2 ? 'odd' : 'even'));
  });
  await space.close();
  const file = join(journalFolder(dir), 'snapshot.jsonl');
  return { dir, file, lines: readFileSync(file, 'utf8').split('\n').slice(0, -1) };
}

test('a large snapshot reads back whole, indexes and first-put order included', async () => {
  const { dir } = await snapshotOf(20_000); // ~1.3 MB: more than one piece
  const space = await openJournalSpace(dir);
  assert.equal(space.recovery, []);
  const t = space.define(people);
  assert.is(t.size, 20_000);
  assert.is(t.first('email', 'p12345@x')?.id, 'p12345');
  assert.is(t.count('team', 'odd'), 10_000);
  assert.equal(
    t
      .lookup('team', 'even')
      .slice(0, 3)
      .map((p) => p.id),
    ['p0', 'p2', 'p4'],
  );
  assert.ok(Object.isFrozen(t.get('p7')));
  await space.close();
});

test('damaged snapshot lines are skipped and reported, as before: a bad record, an end line not at the end, no end', async () => {
  const { dir, file, lines } = await snapshotOf(4);
  const [header, ...rest] = lines;
  const end = rest.pop()!;
  // A corrupt record line and an end line followed by more lines.
  writeFileSync(file, `${[header, rest[0], '{"table":', end, ...rest.slice(1), end].join('\n')}\n`);
  let space = await openJournalSpace(dir);
  assert.equal(space.recovery, [
    'snapshot.jsonl line 3: skipped a corrupt record line',
    'snapshot.jsonl line 4: skipped a corrupt record line',
  ]);
  assert.equal(
    contents(space).map((p) => p.id),
    ['p0', 'p1', 'p2', 'p3'],
  );
  await space.close();
  // Cut short (no end line): everything read is kept, the problem reported.
  const { dir: dir2, file: file2, lines: lines2 } = await snapshotOf(4);
  writeFileSync(file2, lines2.slice(0, 3).join('\n'));
  space = await openJournalSpace(dir2);
  assert.equal(space.recovery, ['snapshot.jsonl: incomplete (2 records read, no end line)']);
  assert.is(contents(space).length, 2);
  await space.close();
  // A damaged header: the snapshot is ignored.
  const { dir: dir3, file: file3, lines: lines3 } = await snapshotOf(2);
  writeFileSync(file3, ['{"snap', ...lines3.slice(1)].join('\n') + '\n');
  space = await openJournalSpace(dir3);
  assert.equal(space.recovery, ['snapshot.jsonl: the header line is damaged; the snapshot was ignored']);
  await space.close();
});

test('a record stored under an id its spec no longer computes is filed under the computed one', async () => {
  const { dir, file, lines } = await snapshotOf(2);
  writeFileSync(file, lines.map((l) => l.replace('"id":"p1","record"', '"id":"old-p1","record"')).join('\n') + '\n');
  const space = await openJournalSpace(dir);
  const t = space.define(people);
  assert.is(t.get('old-p1'), undefined);
  assert.is(t.get('p1')?.email, 'p1@x');
  assert.is(t.first('email', 'p1@x')?.id, 'p1');
  assert.is(t.size, 2);
  await space.close();
});

test.run();
