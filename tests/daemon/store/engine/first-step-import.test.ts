import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openJournalSpace } from '../../../../daemon/store/journal/index.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { contents, people, person } from './journal-fixtures.js';

/** A data folder written by the journal's first step (`<name>.jsonl`, one array of changes a line) opens in the segment layout. */
test('the first-step file is moved into the folder once, kept as a backup, and nothing is lost', async () => {
  const dir = tempDir('journal');
  const lines = [
    [
      { table: 'people', op: 'put', record: person(1), id: 'p1' },
      { table: 'people', op: 'put', record: person(2), id: 'p2' },
    ],
    [{ table: 'people', op: 'remove', id: 'p1' }],
    [{ table: 'people', op: 'put', record: person(3), id: 'p3' }],
  ];
  writeFileSync(
    join(dir, 'accounts.jsonl'),
    lines.map((l) => JSON.stringify(l)).join('\n') + '\n[{"table":"people","op":"pu',
  );
  let space = await openJournalSpace(dir, { name: 'accounts' });
  assert.match(space.recovery[0]!, /accounts\.jsonl: moved into accounts\/ \(3 writes\)/);
  assert.equal(contents(space), [person(2), person(3)]);
  assert.ok(existsSync(join(dir, 'accounts.jsonl.pre-segments')));
  assert.not.ok(existsSync(join(dir, 'accounts.jsonl')));
  const t = space.define(people);
  await space.write((tx) => tx.put(t, person(4)));
  await space.close();
  space = await openJournalSpace(dir, { name: 'accounts' });
  assert.equal(space.recovery, []);
  assert.equal(contents(space), [person(2), person(3), person(4)]);
  await space.close();
});

test.run();
