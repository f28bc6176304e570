import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testPostgres } from '../tests/helpers/postgres.js';
import { startServer, type BenchEnv, type Started } from './harness.js';
import { cpuSeconds, load, type LoadOptions } from './load.js';

/**
 * Team-mode benchmarks' plumbing: a PostgreSQL database on a throwaway cluster (the tests' own,
 * with fsync ON here: appends are measured durable, as on the JSON store), daemons started on it
 * or on a data folder, and a BenchEnv per daemon so the usual set-up helpers work against each.
 */
export interface BenchDaemon extends Started {
  env: BenchEnv;
}

export async function benchDatabase(): Promise<string> {
  process.env.SVC_TEST_PG_DURABLE = '1';
  const cluster = testPostgres();
  if (!cluster) throw new Error('PostgreSQL is not installed: the team-mode cases need it');
  return (await cluster()).createDatabase();
}

/** A daemon on `database` (or on its own data folder without one), tier company for every user. */
export async function startBenchDaemon(env: BenchEnv, database?: string): Promise<BenchDaemon> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-team-'));
  const args = ['daemon', 'start', '--foreground', '--port', '0', '--data', dataDir, '--default-tier', 'company'];
  const cli = fileURLToPath(new URL('../cli/main.js', import.meta.url));
  const started = await startServer(
    cli,
    [...args, ...(database ? ['--database', database] : [])],
    join(dataDir, 'log'),
  );
  const operatorToken = readFileSync(join(dataDir, 'operator-token'), 'utf8').trim();
  const own: BenchEnv = {
    ...env,
    daemon: { url: started.url, dataDir, operatorToken },
    async call(method, path, body, headers) {
      const res = await fetch(started.url + path, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
  };
  const stop = async () => {
    await started.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { ...started, stop, env: own };
}

export interface Load {
  urls: string[];
  /** The same for every URL, or one per URL (in `urls`' order). */
  options: LoadOptions | LoadOptions[];
  /** Processes whose CPU the set-up spends (daemons, and the database's for PostgreSQL). */
  pids: () => number[];
}

export interface Alternated {
  a: number;
  b: number;
  /** The lowest and highest ratio b/a over the rounds. */
  range: [number, number];
  /** CPU per request of `a` ÷ that of `b` (median): steadier than req/s on a busy machine. */
  cpuRatio?: number;
}

/**
 * Two set-ups measured in alternating slices (as compare.ts does for the baseline), `rounds` pairs
 * of `duration` seconds each, the order flipped every round (a b, b a, a b…) so neither side always
 * runs just after the other's load; a set-up with several URLs drives them at once, the same total
 * connections split between them, and counts the sum. Returns the pair whose ratio b/a is the
 * median, and the range of the ratios (on a busy machine the range says how far to trust it).
 */
export async function alternate(env: BenchEnv, a: Load, b: Load, rounds = 5): Promise<Alternated> {
  const slice = Math.max(1, env.duration);
  const run = async (l: Load, duration = slice) => {
    const connections = Math.max(1, Math.floor(env.connections / l.urls.length));
    const before = cpuOf(l.pids());
    const results = await Promise.all(
      l.urls.map((url, i) => {
        const options = Array.isArray(l.options) ? l.options[i] : l.options;
        return load(url, env, { ...options, duration, connections });
      }),
    );
    const total = results.reduce((sum, r) => sum + r.total, 0);
    return { rps: results.reduce((sum, r) => sum + r.rps, 0), cpu: (cpuOf(l.pids()) - before) / Math.max(1, total) };
  };
  // Unmeasured first, at the measured concurrency: a daemon's first requests of a kind open its
  // Company runtime, open its pool's connections (one per concurrent query) and wait for the JIT;
  // that start-up is not what either side is compared on.
  for (const l of [a, b]) await run(l, 2);
  const pairs: Array<{ a: number; b: number }> = [];
  const cpu: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const flip = i % 2 === 1;
    const first = await run(flip ? b : a);
    const second = await run(flip ? a : b);
    const [x, y] = flip ? [second, first] : [first, second];
    pairs.push({ a: x.rps, b: y.rps });
    if (x.cpu > 0 && y.cpu > 0) cpu.push(x.cpu / y.cpu);
  }
  pairs.sort((x, y) => x.b / x.a - y.b / y.a);
  cpu.sort((x, y) => x - y);
  const median = pairs[Math.floor(rounds / 2)]!;
  const range: [number, number] = [pairs[0]!.b / pairs[0]!.a, pairs.at(-1)!.b / pairs.at(-1)!.a];
  return cpu.length === rounds ? { ...median, range, cpuRatio: cpu[Math.floor(rounds / 2)]! } : { ...median, range };
}

const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);

/**
 * The processes of the bench cluster: its postmaster (from postmaster.pid beside the socket folder
 * in the URL) and every backend it forked. Other clusters on the machine are not counted.
 */
export function clusterPids(databaseUrl: string): number[] {
  const socket = new URL(databaseUrl.replace(/^postgres(ql)?:\/\/[^/]*/, 'http://x')).searchParams.get('host');
  if (!socket) return [];
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(join(dirname(socket), 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return [];
  }
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}
