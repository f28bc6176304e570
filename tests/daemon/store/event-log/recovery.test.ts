import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openEventLog, type NewEventRow } from '../../../../daemon/store/event-log/index.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { tempDir } from '../../../helpers/temp-dir.js';

/** Opening never fails on what it finds: a torn tail is cut, a corrupt line skipped, each reported. */
const event = (n: number): NewEventRow => ({
  type: 'test:n',
  agent_id: `a${n % 3}`,
  session_id: null,
  quest_id: null,
  causation_id: null,
  content: { n },
});
const segmentFile = (dir: string) => join(dir, 'events', '000001.jsonl');

test('a torn last line is cut off at start and the log goes on cleanly', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock });
  const a = await log.append(event(1));
  const b = await log.append(event(2));
  await log.close();
  const intact = statSync(segmentFile(dir)).size;
  appendFileSync(segmentFile(dir), '{"id":"evt_0000000000000003","type":"test:n","agent_');
  log = await openEventLog(dir, { clock });
  assert.is(log.recovery.length, 1);
  assert.match(log.recovery[0]!, /000001\.jsonl: cut an unfinished last line at byte/);
  assert.is(statSync(segmentFile(dir)).size, intact, 'the file is cut back to its last complete line');
  assert.equal((await log.query({})).events, [a, b]);
  const c = await log.append(event(3));
  assert.is(c.id, 'evt_0000000000000003', 'the torn event was never acknowledged, so its id is reused');
  await log.close();
  log = await openEventLog(dir, { clock });
  assert.equal(log.recovery, []);
  assert.equal((await log.query({})).events, [a, b, c]);
  await log.close();
});

test('a corrupt line in the middle is skipped and reported, never fatal', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock });
  const rows = [];
  for (let i = 0; i < 4; i++) rows.push(await log.append(event(i)));
  await log.close();
  const lines = readFileSync(segmentFile(dir), 'utf8').split('\n');
  lines[1] = '{"id":"evt_00000000000\u0000garbage';
  lines[2] =
    '{"id":"evt_0000000000000001","type":"dup","agent_id":null,"session_id":null,"quest_id":null,"causation_id":null,"correlation_id":"x","created_at":"2026-01-01T00:00:00Z","content":1}';
  writeFileSync(segmentFile(dir), lines.join('\n'));
  log = await openEventLog(dir, { clock });
  assert.is(log.recovery.length, 2);
  assert.match(log.recovery[0]!, /000001\.jsonl line 2 \(byte \d+\): skipped a corrupt line/);
  assert.match(log.recovery[1]!, /line 3 .*id is not above the previous one/);
  assert.equal((await log.query({})).events, [rows[0], rows[3]]);
  assert.is((await log.append(event(9))).id, 'evt_0000000000000005');
  await log.close();
});

test('a line whose content is damaged is left out when read, reported, and paged past', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock });
  const rows = [];
  for (let i = 0; i < 3; i++) rows.push(await log.append(event(i)));
  await log.close();
  const text = readFileSync(segmentFile(dir), 'utf8').replace('"content":{"n":1}', '"content":{"n":}');
  writeFileSync(segmentFile(dir), text);
  log = await openEventLog(dir, { clock });
  const first = await log.query({ limit: 2 });
  assert.equal(first.events, [rows[0]]);
  assert.is(first.next_since_id, rows[1]!.id, 'the cursor moves past the damaged line');
  assert.equal((await log.query({ since_id: first.next_since_id! })).events, [rows[2]]);
  assert.is(await log.get(rows[1]!.id), undefined);
  assert.equal(log.recovery, [`${rows[1]!.id}: left out a line whose content is corrupt`]);
  await log.close();
});

test.run();
