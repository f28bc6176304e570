import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openBenchEnv } from './harness.js';
import { cpuSeconds, load } from './load.js';
import { benchDatabase, clusterPids, startBenchDaemon } from './team.js';
import { createWalletSecretKey } from './wallet-key.js';

/**
 * `node dist/bench/team-breakdown.js`: where the CPU of a durable append goes in team mode, per
 * process, for three set-ups on one database: one daemon (20 connections), two daemons appending
 * to one Company (10 + 10), and two daemons appending to two Companies (10 + 10: the same
 * processes with nothing to coordinate, as they share no log). Each slice prints appends per
 * second, how busy the machine was, CPU µs per append for each daemon, the database and this
 * process (the load generator), context switches per append (the whole machine), and head-row
 * writes per append (one per committed batch). `ROUNDS` (3), `DURATION` (5 s) and `CONNECTIONS`
 * (20) tune it; `PER_DAEMON=N` gives each of two daemons N connections instead of half.
 * docs/deploy.md reads its output.
 */
const rounds = Number(process.env.ROUNDS ?? 3);
const duration = Number(process.env.DURATION ?? 5);
const connections = Number(process.env.CONNECTIONS ?? 20);
const perDaemon = process.env.PER_DAEMON ? Number(process.env.PER_DAEMON) : Math.floor(connections / 2);

const env = await openBenchEnv({ duration, connections });
const database = await benchDatabase();
const [a, b] = await Promise.all([startBenchDaemon(env, database), startBenchDaemon(env, database)]);
const stats = new pg.Client({ connectionString: database });
try {
  await stats.connect();
  const [one, other] = await Promise.all([
    createWalletSecretKey(a.env, 'Breakdown Co'),
    createWalletSecretKey(b.env, 'Breakdown Other Co'),
  ]);
  const target = (url: string, key: string) => ({ url: `${url}/api/events/trigger`, key });
  const setups: Array<[string, Array<{ url: string; key: string }>]> = [
    ['1 daemon', [target(a.url, one)]],
    ['2 daemons, 1 Company', [target(a.url, one), target(b.url, one)]],
    ['2 daemons, 2 Companies', [target(a.url, one), target(b.url, other)]],
  ];
  // Unmeasured first: pools open, runtimes open, the JIT warms.
  for (const [, targets] of setups) await slice(targets, 2);
  process.stdout.write(
    'CPU µs per append of daemon A, daemon B, the database (db) and the load generator (load); context\n' +
      'switches per append on the whole machine; head-row writes per append (one per committed batch)\n\n' +
      `${'set-up'.padEnd(24)} ${'appends/s'.padStart(9)}  busy      A     B    db  load  switches  head writes\n`,
  );
  for (let round = 0; round < rounds; round++) {
    for (const [name, targets] of setups) {
      const m = await slice(targets, duration);
      const us = (seconds: number) => String(Math.round((seconds * 1e6) / m.total)).padStart(6);
      process.stdout.write(
        `${name.padEnd(24)} ${m.rps.toFixed(0).padStart(9)}  ${`${m.busy.toFixed(0)}%`.padStart(4)}` +
          `${us(m.cpu.a)}${us(m.cpu.b)}${us(m.cpu.db)}${us(m.cpu.load)}` +
          `${(m.switches / m.total).toFixed(1).padStart(10)}  ${(m.heads / m.total).toFixed(3).padStart(11)}\n`,
      );
    }
  }
} finally {
  await stats.end().catch(() => {});
  await Promise.all([a.stop(), b.stop()]);
}

async function slice(targets: Array<{ url: string; key: string }>, seconds: number) {
  const before = { cpu: cpuNow(), machine: machine(), heads: await headWrites() };
  const results = await Promise.all(
    targets.map((t) =>
      load(t.url, env, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}` },
        body: { type: 'bench:append', content: { text: 'one durable event' } },
        duration: seconds,
        connections: targets.length === 1 ? connections : perDaemon,
      }),
    ),
  );
  const after = { cpu: cpuNow(), machine: machine(), heads: await headWrites() };
  const ticks = after.machine.total - before.machine.total;
  return {
    total: results.reduce((sum, r) => sum + r.total, 0),
    rps: results.reduce((sum, r) => sum + r.rps, 0),
    busy: 100 * (1 - (after.machine.idle - before.machine.idle) / Math.max(1, ticks)),
    switches: after.machine.switches - before.machine.switches,
    heads: after.heads - before.heads,
    cpu: {
      a: after.cpu.a - before.cpu.a,
      b: after.cpu.b - before.cpu.b,
      db: after.cpu.db - before.cpu.db,
      load: after.cpu.load - before.cpu.load,
    },
  };
}

function cpuNow() {
  const of = (pids: number[]) => pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);
  return {
    a: of([a.child.pid!]),
    b: of([b.child.pid!]),
    db: of(clusterPids(database)),
    load: of([process.pid]),
  };
}

/** Idle and total CPU ticks of the whole machine, and its context switches, from /proc/stat. */
function machine() {
  const text = readFileSync('/proc/stat', 'utf8');
  const cpu = text.split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  return {
    idle: cpu[3]! + cpu[4]!,
    total: cpu.reduce((sum, x) => sum + x, 0),
    switches: Number(/^ctxt (\d+)$/m.exec(text)?.[1] ?? 0),
  };
}

/**
 * Head-row writes so far: every committed batch updates its Company's head row once. Read from the
 * statistics the server keeps (pg_stat_user_tables), which a backend reports within about a second:
 * a slice's edges blur a little, which is why slices last seconds.
 */
async function headWrites(): Promise<number> {
  const { rows } = await stats.query<{ n: string }>(
    "SELECT n_tup_upd + n_tup_ins AS n FROM pg_stat_user_tables WHERE relname = 'svc_event_heads'",
  );
  return Number(rows[0]?.n ?? 0);
}
