import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  formatEventId,
  openEventLog,
  type EventLog,
  type NewEventRow,
  type SegmentIo,
} from '../../../../daemon/store/event-log/index.js';
import { nodeSegmentIo } from '../../../../daemon/store/disk/segment-io.js';
import type { EventRow } from '../../../../daemon/company/company-services.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { bruteForce, randomEvent, randomQuery, seededRandom } from './log-fixtures.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const event = (n: number, extra: Partial<NewEventRow> = {}): NewEventRow => ({
  type: 'test:n',
  agent_id: `a${n % 3}`,
  session_id: null,
  quest_id: null,
  causation_id: null,
  content: { n },
  ...extra,
});

/** An io seam that counts syncs and can hold a sync until the test releases it. */
function countingIo() {
  const counts = { writes: 0, syncs: 0 };
  let gate: Promise<void> | null = null;
  let open: () => void = () => {};
  const io: SegmentIo = {
    write: (fd, data, position) => (counts.writes++, nodeSegmentIo.write(fd, data, position)),
    sync: async (fd) => {
      counts.syncs++;
      if (gate) await gate;
      return nodeSegmentIo.sync(fd);
    },
    truncate: nodeSegmentIo.truncate,
  };
  return {
    io,
    counts,
    hold: () => void (gate = new Promise((resolve) => (open = () => ((gate = null), resolve())))),
    release: () => open(),
  };
}

test('an acknowledged append is there after reopening, and ids continue above it', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let log: EventLog = await openEventLog(dir, { clock });
  const written = [];
  for (let i = 0; i < 5; i++) written.push(await log.append(event(i, { quest_id: 'q1' })));
  await log.close();
  log = await openEventLog(dir, { clock });
  assert.equal(log.recovery, []);
  assert.equal((await log.query({})).events, written);
  assert.equal((await log.query({ agent_id: 'a1' })).events, [written[1], written[4]], 'indexes rebuilt from disk');
  assert.is(await log.lastId(), written[4]!.id);
  const next = await log.append(event(5));
  assert.ok(next.id > written[4]!.id);
  assert.is(next.id, 'evt_0000000000000006');
  await log.close();
});

test('group commit: many concurrent appends share few syncs, each acknowledged only after its sync', async () => {
  const dir = tempDir('svc-events');
  const { io, counts, hold, release } = countingIo();
  const log = await openEventLog(dir, { clock: new FakeClock(), io });
  hold();
  const first = log.append(event(0));
  let firstDone = false;
  void first.then(() => (firstDone = true));
  // Wait (on events, not on time) until the first batch is written and stuck in its sync.
  while (counts.syncs === 0) await new Promise((r) => setImmediate(r));
  // The first batch is stuck in its sync: everything appended now must wait for the next batch.
  const rest = Array.from({ length: 199 }, (_, i) => log.append(event(i + 1)));
  await new Promise((r) => setImmediate(r));
  assert.is(firstDone, false, 'not acknowledged before its sync returned');
  assert.is(await log.lastId(), null, 'not visible to readers before it is durable');
  assert.is(counts.syncs, 1);
  release();
  const rows = await Promise.all([first, ...rest]);
  assert.is(rows.length, 200);
  assert.ok(counts.syncs <= 3, `200 appends took ${counts.syncs} syncs`);
  assert.is(counts.writes, counts.syncs, 'one write per batch');
  assert.is(log.stats!().syncs, counts.syncs);
  assert.is((await log.query({ limit: 1000 })).events.length, 200);
  await log.close();
});

test('the event log keeps its folder 0700 and its segments and snapshot 0600, like the rest of the data folder', async () => {
  const dir = tempDir('svc-events');
  const log = await openEventLog(dir, { clock: new FakeClock() });
  await log.append(event(1));
  await log.close();
  assert.is(statSync(join(dir, 'events')).mode & 0o777, 0o700);
  const files = readdirSync(join(dir, 'events'));
  assert.ok(files.length >= 2, 'a segment and the snapshot');
  for (const name of files) assert.is(statSync(join(dir, 'events', name)).mode & 0o777, 0o600, name);
});

test('segments roll at their size and are all read back', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock, segmentBytes: 1024, cacheLines: 4 });
  const rows = [];
  for (let i = 0; i < 40; i++) rows.push(await log.append(event(i, { content: { n: i, pad: 'x'.repeat(100) } })));
  assert.ok(readdirSync(join(dir, 'events')).length >= 5);
  for (const name of readdirSync(join(dir, 'events'))) assert.ok(statSync(join(dir, 'events', name)).size <= 1024);
  assert.equal((await log.query({ limit: 1000 })).events, rows, 'reads across segments, past the small cache');
  await log.close();
  log = await openEventLog(dir, { clock, segmentBytes: 1024 });
  assert.equal(
    (await log.query({ agent_id: 'a2', limit: 1000 })).events,
    rows.filter((_, i) => i % 3 === 2),
  );
  assert.is((await log.get(rows[7]!.id))!.id, rows[7]!.id);
  await log.close();
});

test('a failed write rejects its batch, leaves no trace, and later appends go on', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let failNext = false;
  const io: SegmentIo = {
    ...nodeSegmentIo,
    write: async (fd, data, position) => {
      if (failNext) {
        failNext = false;
        // Half the batch reaches the file before the disk gives up.
        await nodeSegmentIo.write(fd, data.subarray(0, data.length >> 1), position);
        throw new Error('EIO: i/o error');
      }
      return nodeSegmentIo.write(fd, data, position);
    },
  };
  let log = await openEventLog(dir, { clock, io });
  const a = await log.append(event(1));
  failNext = true;
  const err = await log.append(event(2)).catch((e: Error) => e);
  assert.match(String(err), /could not write to disk: EIO/);
  const c = await log.append(event(3));
  assert.equal((await log.query({})).events, [a, c]);
  await log.close();
  log = await openEventLog(dir, { clock });
  assert.equal(log.recovery, [], 'the half-written batch was cut back before the next write');
  assert.equal((await log.query({})).events, [a, c]);
  await log.close();
});

test('indexes rebuilt from disk answer like the live ones, odd strings included', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock });
  const random = seededRandom(7);
  const all: EventRow[] = [];
  const odd = ['typ"e:quoted', 'ünï:cödé', 'back\\slash:x', 'emoji:🎉'];
  for (let i = 0; i < 300; i++) {
    clock.advance(Math.floor(random() * 3000) - 500);
    const input = randomEvent(random, all);
    if (i % 7 === 0) input.type = odd[i % odd.length]!;
    if (i % 11 === 0) input.agent_id = 'agént "x"';
    if (i % 13 === 0) input.correlation_id = 'corr-chosen-by-caller';
    if (i % 17 === 0) input.causation_id = 'evt_0000000000999999';
    all.push(await log.append(input));
  }
  await log.close();
  // Both ways of rebuilding: scanning every line, and loading the snapshot the close just wrote.
  for (const snapshot of [false, true]) {
    log = await openEventLog(dir, { clock, snapshot });
    assert.equal(log.recovery, []);
    for (let round = 0; round < 120; round++) {
      const query = randomQuery(random, all, clock.now());
      if (round % 5 === 0) query.event_type = odd[round % odd.length];
      if (round % 6 === 0) query.correlation_id = 'corr-chosen-by-caller';
      if (round % 9 === 0) query.causation_id = 'evt_0000000000999999';
      query.limit = 1000;
      assert.equal(
        (await log.query(query)).events,
        bruteForce(all, query),
        `snapshot ${snapshot}: ${JSON.stringify(query)}`,
      );
    }
    const next = await log.append(event(1000));
    all.push(next);
    assert.is(next.id, formatEventId(all.length), 'ids continue after the last one');
    await log.close();
  }
});

test('the snapshot is used only while the segments are exactly as it saw them', async () => {
  const dir = tempDir('svc-events');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock });
  const a = await log.append(event(1));
  await log.close();
  assert.ok(existsSync(join(dir, 'events', 'index.snapshot')));
  // Opened from the snapshot, appended to, then "crashed" (never closed): the files grew.
  log = await openEventLog(dir, { clock });
  const b = await log.append(event(2));
  const reopened = await openEventLog(dir, { clock });
  assert.equal((await reopened.query({})).events, [a, b], 'a stale snapshot is ignored, the segments are scanned');
  await reopened.close();
  // A damaged snapshot (garbage, or cut short) is only a slower start.
  const snapshotFile = join(dir, 'events', 'index.snapshot');
  const whole = readFileSync(snapshotFile);
  for (const damaged of [Buffer.from('garbage'), whole.subarray(0, whole.length - 6)]) {
    writeFileSync(snapshotFile, damaged);
    const again = await openEventLog(dir, { clock });
    assert.equal((await again.query({})).events, [a, b]);
    assert.equal((await again.query({ agent_id: 'a2' })).events, [b]);
    assert.is(again.stats!().events, 2);
    await again.close();
  }
});

test.run();
