import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { systemClock } from '../../daemon/clock.js';
import { listSegments, segmentPath } from '../../daemon/store/disk/segment-io.js';
import { openEventLog } from '../../daemon/store/event-log/index.js';
import { openJournalSpace, type JournalSpace } from '../../daemon/store/journal/index.js';
import { writeLogFixture } from '../event-log/fixture.js';
import { memoryNow } from '../event-log/measure.js';
import type { BenchCase, BenchRow } from '../harness.js';
import { seedJournal } from '../store/seed-journal.js';
import { benchSession, sessionSeed, sessionSpec } from '../store/synthetic.js';

/**
 * The storage engine at scale, in-process: a durable write at 100,000 records against
 * one at 1,000, the longest event-loop stall while a snapshot of 100,000 records is written under
 * writes, open times after a clean close and after `kill -9`, and the event log's start at 1 M
 * events after `kill -9` against after a clean stop. SVC_BENCH_RECORDS / SVC_BENCH_EVENTS shrink it.
 */
const LARGE = Number(process.env.SVC_BENCH_RECORDS ?? 100_000);
const SMALL = 1_000;
const EVENTS = Number(process.env.SVC_BENCH_EVENTS ?? 1_000_000);
const MB = 1024 * 1024;
const child = fileURLToPath(new URL('../store/crash-child.js', import.meta.url));
const k = (n: number) => n.toLocaleString('en-US');

const recordEngine: BenchCase = {
  name: 'storage engine at scale (record journal, event log)',
  async run() {
    const root = mkdtempSync(join(tmpdir(), 'svc-bench-engine-'));
    try {
      return [...(await measureRecords(root)), ...(await measureEventLogCrash(root))];
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
export default recordEngine;

async function measureRecords(root: string): Promise<BenchRow[]> {
  seedJournal(join(root, 'small'), 'accounts', [sessionSeed(SMALL)]);
  seedJournal(join(root, 'large'), 'accounts', [sessionSeed(LARGE)]);
  cpSync(join(root, 'large'), join(root, 'stall'), { recursive: true });
  cpSync(join(root, 'large'), join(root, 'crash'), { recursive: true });

  const before = await memoryNow();
  const cleanOpen = await timeOpen(join(root, 'large'));
  const after = await memoryNow();
  const small = await openJournalSpace(join(root, 'small'), { name: 'accounts' });
  small.define(sessionSpec);
  const [atSmall, atLarge] = await alternate(small, cleanOpen.space);
  await small.close();
  await cleanOpen.space.close();

  const stall = await measureStall(join(root, 'stall'));
  const snapshotBytes = statSync(join(root, 'crash', 'accounts', 'snapshot.jsonl')).size;
  // Just under the next snapshot's trigger (half the last snapshot): the longest replay a crash can leave.
  await runChild(['journal', join(root, 'crash'), 'accounts', String(Math.floor(snapshotBytes * 0.45))]);
  const crashOpen = await timeOpen(join(root, 'crash'));
  const replayed = crashOpen.space.stats().entries_since_snapshot;
  await crashOpen.space.close();
  return [
    {
      name: `one durable write at ${k(LARGE)} records`,
      value: atLarge,
      unit: 'ms',
      baseline: atSmall,
      baselineName: `at ${k(SMALL)}`,
      target: '<= 1.2',
    },
    {
      name: `longest event-loop stall, 100 writes during snapshots of ${k(LARGE)}`,
      value: stall.during,
      unit: 'ms',
      target: '<= 20',
    },
    { name: `  the same 100 writes without a snapshot (machine noise)`, value: stall.without, unit: 'ms' },
    {
      name: `  longest step of the ${stall.snapshots} snapshot(s) (capture or one slice)`,
      value: stall.step,
      unit: 'ms',
      target: '<= 20',
    },
    { name: `open at ${k(LARGE)} records after a clean close`, value: cleanOpen.ms, unit: 'ms', target: '<= 1000' },
    { name: `  the same: CPU time`, value: cleanOpen.cpuMs, unit: 'ms' },
    {
      name: `open at ${k(LARGE)} records after kill -9 (+${k(replayed)} entries)`,
      value: crashOpen.ms,
      unit: 'ms',
      target: '<= 1000',
    },
    { name: `  the same: CPU time`, value: crashOpen.cpuMs, unit: 'ms' },
    { name: `memory at ${k(LARGE)} records: RSS delta`, value: (after.rss - before.rss) / MB, unit: 'MB' },
    { name: `memory at ${k(LARGE)} records: RSS of the bench process`, value: after.rss / MB, unit: 'MB' },
  ];
}

async function timeOpen(dir: string): Promise<{ ms: number; cpuMs: number; space: JournalSpace }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const space = await openJournalSpace(dir, { name: 'accounts' });
  const table = space.define(sessionSpec); // indexing happens here
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  if (table.size < LARGE) throw new Error(`opened ${table.size} records, expected ${LARGE} or more`);
  return { ms, cpuMs, space };
}

/** Median ms per durable write (a new session + a replaced one, as a login does), alternating the two spaces so machine load hits both alike. */
async function alternate(small: JournalSpace, large: JournalSpace): Promise<[number, number]> {
  const samples: [number[], number[]] = [[], []];
  let n = 0;
  for (let round = 0; round < 7; round++) {
    for (const [i, space] of [small, large].entries()) {
      const t = space.define(sessionSpec);
      const started = performance.now();
      for (let w = 0; w < 30; w++, n++) {
        const existing = t.get(`ses_seed_${n % SMALL}`)!;
        await space.write((tx) => {
          tx.put(t, benchSession(n, 'login'));
          tx.put(t, { ...existing, expires_at: new Date().toISOString() });
        });
      }
      samples[i]!.push((performance.now() - started) / 30);
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  return [median(samples[0]), median(samples[1])];
}

async function measureStall(
  dir: string,
): Promise<{ during: number; without: number; snapshots: number; step: number }> {
  const run = async (snapshotEntries: number) => {
    const space = await openJournalSpace(dir, { name: 'accounts', snapshotEntries });
    const t = space.define(sessionSpec);
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    for (let i = 0; i < 100; i++) await space.write((tx) => tx.put(t, benchSession(i, `stall${snapshotEntries}`)));
    // On a quiet machine the 100 writes can end before the snapshot they started: keep watching the
    // loop until it is in place (bounded), so the stall covers the whole snapshot.
    for (let waited = 0; snapshotEntries < 1e9 && space.stats().snapshots === 0 && waited < 30_000; waited += 10)
      await new Promise((r) => setTimeout(r, 10));
    h.disable();
    const { snapshots, snapshot_longest_step_ms: step } = space.stats();
    await space.close();
    return { ms: h.max / 1e6, snapshots, step };
  };
  const without = await run(1e9);
  const during = await run(1);
  if (during.snapshots === 0) throw new Error('no snapshot was taken during the writes');
  return { during: during.ms, without: without.ms, snapshots: during.snapshots, step: during.step };
}

async function measureEventLogCrash(root: string): Promise<BenchRow[]> {
  const dir = join(root, 'events');
  writeLogFixture(dir, EVENTS);
  const tail = Math.round(Math.max(50_000, EVENTS / 16) / 2);
  await runChild(['events', dir, String(tail)]);
  const tailBytes = bytesAfterSnapshot(join(dir, 'events'));
  // A warm-up open of a copy of the same crashed folder, so the measured opens below both run
  // with the code compiled and the heap grown (the first open in a process pays for that).
  const warm = join(root, 'events-warm-up');
  cpSync(dir, warm, { recursive: true });
  await (await openEventLog(warm, { clock: systemClock })).close();
  rmSync(warm, { recursive: true, force: true });
  const before = await memoryNow();
  let started = performance.now();
  let log = await openEventLog(dir, { clock: systemClock });
  const crashMs = performance.now() - started;
  const after = await memoryNow();
  const events = log.stats!().events;
  await log.close();
  started = performance.now();
  log = await openEventLog(dir, { clock: systemClock });
  const cleanMs = performance.now() - started;
  await log.close();
  return [
    {
      name: `event log start at ${k(events)} events after kill -9`,
      value: crashMs,
      unit: 'ms',
      baseline: cleanMs,
      baselineName: 'after a clean stop',
      target: '<= 1.5',
    },
    {
      name: `  the same after kill -9 (${(tailBytes / MB).toFixed(1)} MB of lines after the last snapshot)`,
      value: crashMs,
      unit: 'ms',
      target: '<= 1000',
    },
    { name: `memory at ${k(events)} events: RSS delta`, value: (after.rss - before.rss) / MB, unit: 'MB' },
  ];
}

/** The bytes of segment lines the index snapshot does not cover (what a start must scan). */
function bytesAfterSnapshot(eventsDir: string): number {
  const data = readFileSync(join(eventsDir, 'index.snapshot'));
  const header = JSON.parse(data.toString('utf8', 4, 4 + data.readUInt32LE(0))) as { segments: [number, number][] };
  const covered = new Map(header.segments);
  return listSegments(eventsDir).reduce(
    (sum, n) => sum + statSync(segmentPath(eventsDir, n)).size - (covered.get(n) ?? 0),
    0,
  );
}

function runChild(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    p.once('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`crash child ended with ${signal ?? code}, not SIGKILL`)),
    );
  });
}
