import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { hashPassword } from '../../daemon/auth/passwords.js';
import type { BenchCase, BenchRow, Started } from '../harness.js';
import { healthy, killHard, login, rssMiB, startTimed } from '../scale/daemon-at-scale.js';
import { inProcessDaemon } from '../scale/in-process.js';
import { seedAccounts } from '../scale/seed-accounts.js';

/**
 * The accounts' scale figures: the same operations on a data folder of 1,000 users and of 100,000
 * (each with a live session), measured in one run, so each figure is a ratio. Seeded users share a
 * cheap password hash: the storage is what is measured here, not scrypt (31-login.ts measures that).
 */
const SMALL = 1_000;
const LARGE = Number(process.env.SVC_BENCH_SCALE_USERS ?? 100_000);
const EVENTS = Number(process.env.SVC_BENCH_SCALE_EVENTS ?? 1_000_000);
const PASSWORD = 'a benchmark password';
const ROUNDS = 300;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

type InProcess = Awaited<ReturnType<typeof inProcessDaemon>>;

/**
 * Login's store write (the session row: one journal line, durable before the answer) on both data
 * folders at once, alternating call by call (small, large, large, small, …), so a burst of load or
 * of disk flushing from other processes hits both alike: median of ROUNDS each, wall and CPU.
 */
async function measureWrites(small: InProcess, large: InProcess) {
  const times = new Map<InProcess, { wall: number[]; cpu: number[] }>([
    [small, { wall: [], cpu: [] }],
    [large, { wall: [], cpu: [] }],
  ]);
  for (let i = 0; i < ROUNDS; i++) {
    for (const d of i % 2 === 0 ? [small, large] : [large, small]) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await d.createSession(`usr_bench${String(i).padStart(8, '0')}`);
      const cpu = process.cpuUsage(cpu0);
      times.get(d)!.wall.push((performance.now() - t0) * 1000);
      times.get(d)!.cpu.push(cpu.user + cpu.system);
    }
  }
  const of = (d: InProcess) => ({ wallUs: median(times.get(d)!.wall), cpuUs: median(times.get(d)!.cpu) });
  return { small: of(small), large: of(large) };
}

/** The longest event-loop stall while 100 logins run, 4 at a time, over HTTP. */
async function longestStall(d: InProcess): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  for (let i = 0; i < 100; i += 4) {
    await Promise.all([0, 1, 2, 3].map((k) => login(d.url, `user${i + k}@bench.example`, PASSWORD)));
  }
  delay.disable();
  return delay.max / 1e6;
}

/**
 * `GET /api/me` on both folders, each served by its own daemon process, measured in alternating
 * slices (small, large, large, small, small, large): the medians, so load from other processes
 * hits both alike instead of skewing one of two back-to-back measurements.
 */
async function meRps(
  dataDirs: [string, string],
  measure: (url: string, headers: Record<string, string>) => Promise<number>,
): Promise<[number, number]> {
  const started: Started[] = [];
  try {
    const targets: { url: string; headers: Record<string, string>; rps: number[] }[] = [];
    for (const dataDir of dataDirs) {
      const { daemon } = await startTimed(dataDir);
      started.push(daemon);
      await healthy(daemon.url);
      const token = await login(daemon.url, 'user1@bench.example', PASSWORD);
      targets.push({ url: `${daemon.url}/api/me`, headers: { authorization: `Bearer ${token}` }, rps: [] });
    }
    for (const i of [0, 1, 1, 0, 0, 1]) targets[i]!.rps.push(await measure(targets[i]!.url, targets[i]!.headers));
    return [median(targets[0]!.rps), median(targets[1]!.rps)];
  } finally {
    for (const daemon of started) await daemon.stop();
  }
}

const scale: BenchCase = {
  name: 'scale: accounts at 1,000 vs 100,000 users',
  async run(env) {
    const hash = await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1, maxmem: 32 * 1024 * 1024 });
    const root = mkdtempSync(join(tmpdir(), 'svc-bench-scale-'));
    try {
      const small = await seedAccounts(join(root, 'small'), SMALL, hash);
      const large = await seedAccounts(join(root, 'large'), LARGE, hash, EVENTS);
      // /api/me first: the in-process logins fill the (stored) per-address login bucket.
      const measure = (url: string, headers: Record<string, string>) => env.measure(url, { headers });
      const [meSmall, meLarge] = await meRps([small.dataDir, large.dataDir], measure);
      const ds = await inProcessDaemon(small.dataDir);
      const dl = await inProcessDaemon(large.dataDir);
      const writes = await measureWrites(ds, dl);
      const s = { stallMs: await longestStall(ds) };
      const l = { stallMs: await longestStall(dl) };
      await ds.stop();
      await dl.stop();

      // The floor: the same daemon on an empty data folder (its own code loading, no data).
      const empty = await startTimed(join(root, 'empty'));
      await healthy(empty.daemon.url);
      const emptyRss = rssMiB(empty.daemon.child.pid);
      await empty.daemon.stop();
      // Start-up with 100,000 users and 1 M events: after a clean stop, then after kill -9.
      const first = await startTimed(large.dataDir);
      await healthy(first.daemon.url);
      await first.daemon.stop();
      const clean = await startTimed(large.dataDir);
      await healthy(clean.daemon.url);
      const cleanMs = clean.ms;
      const rss = rssMiB(clean.daemon.child.pid);
      await killHard(clean.daemon);
      const crash = await startTimed(large.dataDir);
      await healthy(crash.daemon.url);
      await crash.daemon.stop();

      const usersLabel = `${LARGE.toLocaleString('en')} users`;
      const rows: BenchRow[] = [
        {
          name: `login store write at ${usersLabel}`,
          value: writes.large.wallUs,
          unit: 'µs',
          baseline: writes.small.wallUs,
          baselineName: '1,000 users',
          target: '<= 1.2',
        },
        {
          name: '  CPU per write',
          value: writes.large.cpuUs,
          unit: 'µs',
          baseline: writes.small.cpuUs,
          baselineName: '1,000 users',
        },
        {
          name: `GET /api/me time at ${usersLabel}`,
          value: 1e6 / meLarge,
          unit: 'µs/req',
          baseline: 1e6 / meSmall,
          baselineName: '1,000 users',
          target: '<= 1.2',
        },
        { name: `longest loop stall, 100 logins, ${usersLabel}`, value: l.stallMs, unit: 'ms', target: '<= 20' },
        { name: `(same at 1,000 users)`, value: s.stallMs, unit: 'ms' },
        {
          name: `start after clean stop (${usersLabel}, ${EVENTS.toLocaleString('en')} events)`,
          value: cleanMs,
          unit: 'ms',
          target: '<= 1000',
        },
        { name: '  CPU time used by then', value: clean.cpuMs, unit: 'ms' },
        { name: `start after kill -9 (same data)`, value: crash.ms, unit: 'ms', target: '<= 1000' },
        { name: '  CPU time used by then', value: crash.cpuMs, unit: 'ms' },
        { name: `RSS after start (same data)`, value: rss, unit: 'MiB', target: '<= 300' },
        { name: 'start on an empty data folder (the floor)', value: empty.ms, unit: 'ms' },
        { name: '  CPU time used by then', value: empty.cpuMs, unit: 'ms' },
        { name: '  RSS after start', value: emptyRss, unit: 'MiB' },
      ];
      return rows;
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
export default scale;
