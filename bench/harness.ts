import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dataFiles } from '../shared/paths.js';
import { compare, type Comparison } from './compare.js';
import { addFloorRows, assertSameAnswer, captureAnswer, type FloorAnswer, type FloorRows } from './floor.js';
import { load, type LoadOptions } from './load.js';
import { seedOutbox } from './seed-outbox.js';

/**
 * What every benchmark case gets: a bare Koa hello-world, the floor app (bench/floor-app.ts: the
 * hot routes' own work and nothing else) and the svc daemon, each in its own process on loopback,
 * started once per run, so every ratio compares numbers measured in the same run on the same machine.
 */
export type { LoadOptions } from './load.js';

export interface BenchEnv {
  baseline: { url: string };
  daemon: { url: string; dataDir: string; operatorToken: string };
  /** Seconds per load measurement. */
  duration: number;
  connections: number;
  /** Drive `url` with autocannon; returns requests per second (non-2xx answers fail the case). */
  measure(url: string, options?: LoadOptions): Promise<number>;
  /**
   * The daemon against the baseline, measured in alternating slices (baseline, daemon, baseline…)
   * and reported as the pair whose ratio is the median: load from other processes on the machine
   * then hits both sides alike instead of skewing one of two back-to-back runs.
   */
  compare(daemonUrl: string, options?: LoadOptions & { rounds?: number }): Promise<Comparison>;
  /**
   * The same request to `path` on the daemon against bare Koa and against the floor app, all three
   * alternating in one run. The floor app must have its rows for the request (`floor.mirror`).
   */
  compareWithFloor(
    path: string,
    options?: LoadOptions & { rounds?: number },
  ): Promise<{ bareKoa: Comparison; floor: Comparison }>;
  floor: {
    url: string;
    /** The daemon's answer to `request` at `path`, to hand to the floor app in a row. */
    capture(path: string, request?: LoadOptions): Promise<FloorAnswer>;
    /** Hands the floor app `rows`, then fails unless it answers `request` at `path` as the daemon does. */
    mirror(path: string, request: LoadOptions, rows: FloorRows): Promise<void>;
  };
  /** A call against the daemon, for set-up (sign a user up, create a Company…). */
  call: CallDaemon;
  /**
   * Starts the daemon with or without its audit trail (bench/audit-variant.ts: both from the same
   * entry) on a data folder of its own; `close` stops it too if the case did not.
   */
  startAuditVariant(audit: boolean): Promise<AuditVariant>;
}

export type CallDaemon = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: any }>;

export interface AuditVariant {
  url: string;
  pid: number | undefined;
  daemon: { operatorToken: string };
  call: CallDaemon;
  stop(): Promise<void>;
}

/** One line of the report. `ratio` = value / baseline when there is a baseline. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  baselineName?: string;
  /** Baseline CPU per request ÷ the daemon's (see compare.ts), printed after the ratio. */
  cpuRatio?: number;
  /** Lowest and highest ratio over the alternating rounds, printed after the ratio. */
  ratioRange?: [number, number];
  /** e.g. '>= 0.6': printed next to the ratio, and marked when missed. */
  target?: string;
  /** What the target holds to: the req/s ratio (the default) or the cpu ratio. */
  targetOn?: 'ratio' | 'cpu ratio';
}

/** The row under a hot route's: the same measurement against the floor app, its target on the cpu ratio. */
export function floorRow(floor: Comparison, target: string): BenchRow {
  return {
    name: '  the same, vs the floor app',
    unit: 'req/s',
    ...floor,
    baselineName: 'floor app',
    target,
    targetOn: 'cpu ratio',
  };
}

export interface BenchCase {
  name: string;
  run(env: BenchEnv): Promise<BenchRow[]>;
}

export interface Started {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Servers still running. A bench process that ends any other way than through the cases' own stops
 * (a throw, Ctrl-C, `timeout`'s SIGTERM) stops them too, as the test cluster's helper stops its
 * PostgreSQL on exit: left running, they would hold the terminal's pipe open and keep their ports,
 * data folders and the cluster's processes on a machine the next run measures.
 */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => process.exit(code));
}

/** Starts `node <script> ...args` and waits for its first stdout line `listening on <url>`. */
export function startServer(
  script: string,
  args: string[],
  logFile?: string,
  nodeArgs: string[] = [],
): Promise<Started> {
  return new Promise((resolve, reject) => {
    // The daemon writes an access-log line per request: into a file, as a real deployment would, not onto this terminal.
    const stderr = logFile ? openSync(logFile, 'a') : 'inherit';
    // The MCP tool-call limit (120/min per key) would turn a load run into a 429 run: off while benchmarking.
    const env = { ...process.env, SVC_MCP_TOOL_CALLS_PER_MINUTE: process.env.SVC_MCP_TOOL_CALLS_PER_MINUTE ?? '0' };
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', stderr], env });
    running.add(child);
    child.once('exit', () => running.delete(child));
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 30 s`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} during start-up`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = /^listening on (\S+)/.exec(line);
      if (!match) return reject(new Error(`${script}: unexpected first line '${line}'`));
      child.stdout!.resume();
      resolve({
        url: match[1]!,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

const callAt =
  (base: string): CallDaemon =>
  async (method, path, body, headers) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

/** Starts both servers and builds the env the cases share; `close` stops them and removes the data folder. */
export async function openBenchEnv(options: {
  duration: number;
  connections: number;
}): Promise<BenchEnv & { close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const logDir = mkdtempSync(join(tmpdir(), 'svc-bench-log-'));
  // The daemon starts on a data folder that already holds a realistic outbox (see seed-outbox.ts).
  await seedOutbox(dataDir);
  const baseline = await startServer(here('./baseline-koa.js'), []);
  // SVC_BENCH_PROFILE=<dir>: the floor app's profile goes to <dir>/floor, to read beside the daemon's.
  const profileDir = process.env.SVC_BENCH_PROFILE;
  const floor = await startServer(
    here('./floor-app.js'),
    [],
    undefined,
    profileDir ? ['--cpu-prof', '--cpu-prof-dir', join(profileDir, 'floor')] : [],
  );
  const daemon = await startServer(
    here('../cli/main.js'),
    ['daemon', 'start', '--foreground', '--port', '0', '--data', dataDir, '--default-tier', 'company'],
    join(logDir, 'daemon.log'),
    // SVC_BENCH_PROFILE=<dir>: the daemon writes a V8 CPU profile there when it stops (docs/performance.md).
    profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
  );
  const operatorToken = readFileSync(join(dataDir, 'operator-token'), 'utf8').trim();
  // The floor app checks session tokens with the daemon's own secret, so the daemon's tokens pass.
  await addFloorRows(floor.url, { jwtSecret: readFileSync(join(dataDir, dataFiles.jwtSecret), 'utf8').trim() });
  const bareKoa = { url: baseline.url, pid: baseline.child.pid };
  const variants: { stop(): Promise<void>; dataDir: string }[] = [];
  const env: BenchEnv = {
    baseline: { url: baseline.url },
    daemon: { url: daemon.url, dataDir, operatorToken },
    duration: options.duration,
    connections: options.connections,
    measure: async (url, o) => (await load(url, env, o)).rps,
    compare: async (url, o) => (await compare([bareKoa], { url, pid: daemon.child.pid }, env, o))[0]!,
    async compareWithFloor(path, o) {
      const floorSide = { url: floor.url + path, pid: floor.child.pid, sameRequest: true };
      // A second of the same request on each side first: a route's first thousands of requests run
      // before V8 has compiled its code, and the floor app has served none before its case.
      for (const url of [floorSide.url, daemon.url + path]) await load(url, env, { ...o, duration: 1 });
      const [bareKoaPair, floorPair] = await compare(
        [bareKoa, floorSide],
        { url: daemon.url + path, pid: daemon.child.pid },
        env,
        o,
      );
      return { bareKoa: bareKoaPair!, floor: floorPair! };
    },
    floor: {
      url: floor.url,
      capture: (path, request) => captureAnswer(daemon.url + path, request),
      async mirror(path, request, rows) {
        await addFloorRows(floor.url, rows);
        await assertSameAnswer(daemon.url + path, floor.url + path, request);
      },
    },
    call: callAt(daemon.url),
    async startAuditVariant(audit) {
      const variantDir = mkdtempSync(join(tmpdir(), `svc-bench-audit-${audit ? 'on' : 'off'}-`));
      const started = await startServer(
        here('./audit-variant.js'),
        [variantDir, audit ? 'on' : 'off'],
        join(logDir, `audit-${audit ? 'on' : 'off'}.log`),
      );
      const stop = async () => {
        await started.stop();
        rmSync(variantDir, { recursive: true, force: true });
      };
      variants.push({ stop, dataDir: variantDir });
      return {
        url: started.url,
        pid: started.child.pid,
        daemon: { operatorToken: readFileSync(join(variantDir, 'operator-token'), 'utf8').trim() },
        call: callAt(started.url),
        stop,
      };
    },
  };
  return {
    ...env,
    async close() {
      await Promise.all([baseline.stop(), floor.stop(), daemon.stop(), ...variants.map((v) => v.stop())]);
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}
