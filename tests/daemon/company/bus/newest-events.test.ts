import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRuntimeTestApp } from '../../../helpers/runtime-app.js';

for (const storage of ['memory', 'file'] as const) {
  test(`${storage}: last=N gives the newest N, oldest first, with filters; cursor for a follower`, async () => {
    const t = await createRuntimeTestApp({ storage });
    try {
      for (let i = 0; i < 30; i++)
        await t.post('/api/events/trigger', { type: i % 10 === 0 ? 'session:rare' : 'session:custom', content: { i } });
      const res = await t.get('/api/events?last=5');
      assert.is(res.status, 200, res.text);
      assert.equal(
        res.body.events.map((e: { content: { i: number } }) => e.content.i),
        [25, 26, 27, 28, 29],
      );
      assert.is(res.body.next_since_id, null);
      assert.is(res.body.cursor, res.body.events[4].id);
      // A rare type far back: the walk widens until it has them all.
      const rare = await t.get('/api/events?last=10&event_type=session:rare');
      assert.equal(
        rare.body.events.map((e: { content: { i: number } }) => e.content.i),
        [0, 10, 20],
      );
      assert.is((await t.get('/api/events?last=1000')).body.events.length, 30);
      const none = await t.get('/api/events?last=3&event_type=session:never');
      assert.equal(none.body.events, []);
      assert.ok(none.body.cursor, 'an empty answer still says where the log ends');
    } finally {
      await t.close();
    }
  });
}

test('last=N on an empty log, and the refusals: with since_id, limit or wait, out of range', async () => {
  const t = await createRuntimeTestApp();
  try {
    assert.equal((await t.get('/api/events?last=5')).body.events, []);
    for (const q of [
      'last=0',
      'last=1001',
      'last=x',
      'last=5&since_id=evt_0000000000000001',
      'last=5&limit=3',
      'last=5&wait=1',
    ]) {
      const res = await t.get(`/api/events?${q}`);
      assert.is(res.status, 400, q);
      assert.ok(res.body.code && res.body.error, q);
    }
  } finally {
    await t.close();
  }
});

test.run();
