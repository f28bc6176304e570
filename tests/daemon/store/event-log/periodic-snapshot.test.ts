import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openEventLog, type EventLog, type NewEventRow } from '../../../../daemon/store/event-log/index.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { tempDir } from '../../../helpers/temp-dir.js';

/**
 * Index snapshots are saved every N events, not only at a clean close, so a start after a crash
 * (the log left open, as `kill -9` leaves it) loads the snapshot and reads only the lines after it.
 */
const event = (n: number): NewEventRow => ({
  type: `test:${n % 4}`,
  agent_id: `a${n % 3}`,
  session_id: `s${n % 5}`,
  quest_id: null,
  causation_id: null,
  content: { n },
});
const segmentFile = (dir: string) => join(dir, 'events', '000001.jsonl');
const snapshotFile = (dir: string) => join(dir, 'events', 'index.snapshot');

/** Waits (event-loop turns, no clock) until the background save has put a snapshot in place. */
async function snapshotWritten(dir: string): Promise<void> {
  for (let i = 0; i < 10_000 && !existsSync(snapshotFile(dir)); i++) await new Promise((r) => setTimeout(r, 1));
  assert.ok(existsSync(snapshotFile(dir)), 'a periodic snapshot was written');
}

async function appendMany(log: EventLog, from: number, to: number) {
  const rows = [];
  for (let i = from; i < to; i++) rows.push(await log.append(event(i)));
  return rows;
}

test('a periodic snapshot is written while the log stays open; a crash start reads only the tail', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  const log = await openEventLog(dir, { clock, snapshotEvery: 20 });
  const rows = await appendMany(log, 0, 25);
  await snapshotWritten(dir);
  rows.push(...(await appendMany(log, 25, 30)));
  // Proof that the covered part is not read again: a line inside it is damaged in place (same
  // size), yet the start neither reports it nor leaves it out of the indexes.
  const text = readFileSync(segmentFile(dir), 'utf8');
  const third = text.split('\n')[2]!;
  writeFileSync(segmentFile(dir), text.replace(third, third.replace('"type":"test:2"', '"type"!"test:2"')));
  // No close: the files are left as kill -9 leaves them.
  const again = await openEventLog(dir, { clock, snapshotEvery: 20 });
  assert.equal(again.recovery, []);
  assert.is(again.stats!().events, 30);
  assert.is(again.stats!().events, 30, 'the damaged line was not scanned (a scan would have skipped it)');
  assert.equal(
    (await again.query({ limit: 100 })).events,
    rows.filter((_, i) => i !== 2),
    'it is only left out when read',
  );
  assert.equal(
    (await again.query({ session_id: 's4', since_id: rows[19]!.id })).events,
    rows.slice(20).filter((_, i) => (i + 20) % 5 === 4),
  );
  assert.is((await again.append(event(30))).id, 'evt_0000000000000031');
  await again.close();
  await log.close().catch(() => undefined);
});

test('a torn tail after the snapshot is cut, and the events before it are all there', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  const log = await openEventLog(dir, { clock, snapshotEvery: 10 });
  const rows = await appendMany(log, 0, 12);
  await snapshotWritten(dir);
  rows.push(...(await appendMany(log, 12, 15)));
  const intact = statSync(segmentFile(dir)).size;
  appendFileSync(segmentFile(dir), '{"id":"evt_0000000000000016","type":"te');
  const again = await openEventLog(dir, { clock });
  assert.is(again.recovery.length, 1);
  assert.match(again.recovery[0]!, /cut an unfinished last line/);
  assert.is(statSync(segmentFile(dir)).size, intact);
  assert.equal((await again.query({ limit: 100 })).events, rows);
  await again.close();
  await log.close().catch(() => undefined);
});

test('a snapshot that no longer matches the segments (a file cut shorter) is discarded and every line scanned', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock });
  const rows = await appendMany(log, 0, 6);
  await log.close();
  const lines = readFileSync(segmentFile(dir), 'utf8').split('\n');
  writeFileSync(segmentFile(dir), lines.slice(0, 4).join('\n') + '\n');
  log = await openEventLog(dir, { clock });
  assert.equal((await log.query({ limit: 100 })).events, rows.slice(0, 4));
  assert.is((await log.append(event(7))).id, 'evt_0000000000000005');
  await log.close();
});

test('a leftover snapshot .tmp (a crash mid-save) is removed at open and changes nothing', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock });
  const rows = await appendMany(log, 0, 3);
  await log.close();
  writeFileSync(join(dir, 'events', 'index.snapshot.tmp'), 'half a snap');
  log = await openEventLog(dir, { clock });
  assert.not.ok(existsSync(join(dir, 'events', 'index.snapshot.tmp')));
  assert.equal((await log.query({})).events, rows);
  await log.close();
});

test('a close rewrites the index snapshot only when the log holds lines it does not cover', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock });
  await appendMany(log, 0, 5);
  await log.close();
  const first = statSync(snapshotFile(dir)).ino;
  // A run that appends nothing leaves the snapshot as it was (at 1 M events it is ~78 MB).
  log = await openEventLog(dir, { clock });
  await log.close();
  assert.is(statSync(snapshotFile(dir)).ino, first);
  // A run that appends saves it again at its close; so does a close after a crash left a tail.
  log = await openEventLog(dir, { clock });
  await appendMany(log, 5, 7);
  await log.close();
  const second = statSync(snapshotFile(dir)).ino;
  assert.is.not(second, first);
  const crashed = await openEventLog(dir, { clock });
  await appendMany(crashed, 7, 9); // and no close: as kill -9 leaves it
  log = await openEventLog(dir, { clock });
  await log.close();
  assert.is.not(statSync(snapshotFile(dir)).ino, second);
  log = await openEventLog(dir, { clock });
  assert.is((await log.query({ limit: 100 })).events.length, 9);
  await log.close();
});

test.run();
