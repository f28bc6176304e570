import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pickTypeColor, buildEventRow, shortenId, summarizeContent } from '../../../cli/ui/event-row.js';
import { createLiveFeed } from '../../../cli/ui/live-feed.js';

test('types are coloured by their prefix; unknown prefixes are plain', () => {
  assert.is(pickTypeColor('session:start'), 'green');
  assert.is(pickTypeColor('schedule:0 9 * * *'), 'cyan');
  assert.is(pickTypeColor('guardrail:tripped'), 'red');
  assert.is(pickTypeColor('graph_guardrail:cycle'), 'red');
  assert.is(pickTypeColor('custom:thing'), 'white');
  assert.is(pickTypeColor('nocolon'), 'white');
});

test('ids keep their prefix and random tail; short or unprefixed ids stay whole', () => {
  assert.is(shortenId('agt_mhqz1x2k0000abc123'), 'agt_…abc123');
  assert.is(shortenId('ses_abc'), 'ses_abc');
  assert.is(shortenId('plain-id-without-underscore'), 'plain-id-without-underscore');
});

test('content is summarized on one line and cut', () => {
  assert.is(summarizeContent(null), '');
  assert.is(summarizeContent({ a: 'x\ny', b: [1, 2], c: { d: true } }), 'a=x y b=[1,2] c={"d":true}');
  assert.is(summarizeContent([1, 'two']), '[1,"two"]');
  assert.is(summarizeContent(42), '42');
  const long = summarizeContent('x'.repeat(500), 20);
  assert.is(long.length, 20);
  assert.ok(long.endsWith('…'));
});

test('a row has time, type, event id, scope and summary cells, and no empty cells', () => {
  const row = buildEventRow({
    id: 'evt_1',
    type: 'quest:x',
    agent_id: null,
    session_id: null,
    quest_id: 'qst_mhqz1x2k0000qqqqqq',
    content: null,
    created_at: '2026-11-22T08:07:06.000Z',
    causation_id: null,
    correlation_id: 'evt_1',
    source: 'emitter',
  });
  assert.equal(
    row.cells.map((c) => c.text),
    ['08:07:06', 'quest:x', 'evt_1', 'quest=qst_…qqqqqq'],
  );
  assert.is(row.key, 'evt_1');
});

test('the feed keeps only the newest rows but counts them all, and coalesces notifications', async () => {
  const feed = createLiveFeed(50);
  let calls = 0;
  feed.subscribe(() => calls++);
  for (let n = 1; n <= 1000; n++) feed.push({ key: String(n), cells: [] });
  await Promise.resolve();
  assert.is(calls, 1);
  assert.is(feed.total(), 1000);
  const rows = feed.rows();
  assert.is(rows.length, 50);
  assert.is(rows[0]!.key, '951');
  assert.is(rows[49]!.key, '1000');
});

test.run();
