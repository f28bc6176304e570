import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemorySpace } from '../../../../daemon/store/engine/memory-space.js';
import type { Space, TableSpec } from '../../../../daemon/store/engine/types.js';
import { openJournalSpace } from '../../../../daemon/store/journal/index.js';
import { tempDir } from '../../../helpers/temp-dir.js';

/** The record engine's contract, run against every backend (memory, journal with a reopen). */

interface Person {
  id: string;
  email: string;
  team: string | null;
}
const people: TableSpec<Person> = {
  name: 'people',
  id: (p) => p.id,
  indexes: { email: (p) => p.email, team: (p) => p.team },
};

const backends: Record<string, () => Promise<{ space: Space; reopen: () => Promise<Space> }>> = {
  memory: async () => {
    const space = createMemorySpace();
    return { space, reopen: async () => space };
  },
  journal: async () => {
    const dir = tempDir('engine-');
    const space = await openJournalSpace(dir);
    return {
      space,
      reopen: async () => {
        await space.close();
        return openJournalSpace(dir);
      },
    };
  },
};

for (const [name, make] of Object.entries(backends)) {
  const test = suite(`record engine: ${name}`);

  test('puts, finds by id and index, replaces and removes; survives a reopen', async () => {
    const { space, reopen } = await make();
    const t = space.define(people);
    await space.write((tx) => {
      tx.put(t, { id: 'p1', email: 'a@x', team: 'red' });
      tx.put(t, { id: 'p2', email: 'b@x', team: 'red' });
      tx.put(t, { id: 'p3', email: 'c@x', team: null });
    });
    await space.write((tx) => tx.put(t, { id: 'p2', email: 'b2@x', team: 'blue' }));
    await space.write((tx) => tx.remove(t, 'p3'));
    const again = await reopen();
    const r = again.define(people);
    assert.is(r.size, 2);
    assert.equal(r.get('p2'), { id: 'p2', email: 'b2@x', team: 'blue' });
    assert.is(r.first('email', 'b@x'), undefined);
    assert.equal(
      r.lookup('team', 'red').map((p) => p.id),
      ['p1'],
    );
    assert.is(r.count('team', 'blue'), 1);
    assert.is(r.get('p3'), undefined);
  });

  test('a write that throws changes nothing; reads inside a write see the state before it', async () => {
    const { space } = await make();
    const t = space.define(people);
    await assert.not.throws(() => space.write((tx) => tx.put(t, { id: 'p1', email: 'a@x', team: null })));
    await space.flush();
    let inside: Person | undefined;
    try {
      await space.write((tx) => {
        tx.put(t, { id: 'p9', email: 'z@x', team: null });
        inside = t.get('p9');
        throw new Error('no');
      });
      assert.unreachable();
    } catch (err) {
      assert.is((err as Error).message, 'no');
    }
    assert.is(inside, undefined);
    assert.is(t.get('p9'), undefined);
    assert.is(t.size, 1);
  });

  test('an index key shared by several records, then by one again, then by none', async () => {
    const { space } = await make();
    const t = space.define(people);
    await space.write((tx) => tx.put(t, { id: 'p1', email: 'a@x', team: 'red' }));
    assert.equal([t.count('team', 'red'), t.first('team', 'red')?.id], [1, 'p1']);
    await space.write((tx) => tx.put(t, { id: 'p2', email: 'b@x', team: 'red' }));
    await space.write((tx) => tx.put(t, { id: 'p1', email: 'a2@x', team: 'red' }));
    assert.equal(
      t
        .lookup('team', 'red')
        .map((p) => p.id)
        .sort(),
      ['p1', 'p2'],
    );
    await space.write((tx) => tx.remove(t, 'p1'));
    assert.equal([t.count('team', 'red'), t.first('team', 'red')?.id, t.lookup('team', 'red').length], [1, 'p2', 1]);
    await space.write((tx) => tx.put(t, { id: 'p2', email: 'b@x', team: 'blue' }));
    assert.equal([t.count('team', 'red'), t.first('team', 'red'), t.lookup('team', 'red')], [0, undefined, []]);
    assert.is(t.first('email', 'a@x'), undefined);
  });

  test('records are frozen: a change must be a new put', async () => {
    const { space } = await make();
    const t = space.define(people);
    await space.write((tx) => tx.put(t, { id: 'p1', email: 'a@x', team: null }));
    assert.throws(() => {
      (t.get('p1') as Person).email = 'evil@x';
    });
  });

  test('lookups answer in first-put order, however records were replaced or moved between keys', async () => {
    const { space } = await make();
    const t = space.define(people);
    await space.write((tx) => {
      for (const id of ['p1', 'p2', 'p3']) tx.put(t, { id, email: `${id}@x`, team: 'red' });
      tx.put(t, { id: 'p4', email: 'p4@x', team: 'blue' });
    });
    await space.write((tx) => tx.put(t, { id: 'p1', email: 'new@x', team: 'red' }));
    assert.equal(
      t.lookup('team', 'red').map((p) => p.id),
      ['p1', 'p2', 'p3'],
      'a replaced record keeps its place',
    );
    await space.write((tx) => tx.put(t, { id: 'p2', email: 'p2@x', team: 'blue' }));
    await space.write((tx) => tx.put(t, { id: 'p1', email: 'p1@x', team: 'blue' }));
    assert.equal(
      t.lookup('team', 'blue').map((p) => p.id),
      ['p1', 'p2', 'p4'],
      'records moved in sort by first put',
    );
    assert.is(t.first('team', 'blue')!.id, 'p1');
  });

  test.run();
}
