import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashPassword } from '../../daemon/auth/passwords.js';
import type { BenchCase, BenchRow } from '../harness.js';
import { cpuSeconds } from '../load.js';
import { call, type Company, PASSWORD, prepare } from '../scale/bench-company.js';
import { folderBytes } from '../scale/folder-bytes.js';

/**
 * The per-Company scale figures: appending a session message, creating a quest, and a trigger
 * that fires one tool call, in a Company holding 1,000 records and one holding 100,000 (half of
 * them the session's transcript, half quests), in one run.
 *
 * The two sizes are served by two daemon processes (each its own heap and collector) that are
 * driven in turn, call by call (small, large, large, small, …), so a burst of load from other
 * processes or the disk flushing the seed hits both alike; each figure is the median of ROUNDS
 * calls. Beside the wall time: the server's CPU time per call (from /proc, much less affected by
 * the machine's load) and the bytes each call added to the Company's folder — what shows whether
 * the work itself grows with the history, or only the noise does.
 */
const SMALL = 1_000;
const LARGE = Number(process.env.SVC_BENCH_SCALE_RECORDS ?? 100_000);
const ROUNDS = Number(process.env.SVC_BENCH_SCALE_ROUNDS ?? 300);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Figures {
  wallUs: number;
  cpuUs: number;
  bytes: number;
}

/**
 * ROUNDS calls of `op` on each Company, alternating which goes first, after one call each that is
 * not counted: the first request to a Company opens its runtime (loading its records), a one-off
 * that, summed into the CPU per call, made the large Company look ~1.5x as costly per message.
 */
async function interleaved(small: Company, large: Company, op: (c: Company) => Promise<unknown>) {
  await op(small);
  await op(large);
  const wall = new Map<Company, number[]>([
    [small, []],
    [large, []],
  ]);
  const cpu0 = new Map([small, large].map((c) => [c, cpuSeconds(c.daemon.child.pid) ?? Number.NaN]));
  const bytes0 = new Map([small, large].map((c) => [c, folderBytes(c.dir)]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const c of i % 2 === 0 ? [small, large] : [large, small]) {
      const t0 = performance.now();
      await op(c);
      wall.get(c)!.push((performance.now() - t0) * 1000);
    }
  }
  const figures = (c: Company): Figures => ({
    wallUs: median(wall.get(c)!),
    cpuUs: (((cpuSeconds(c.daemon.child.pid) ?? Number.NaN) - cpu0.get(c)!) * 1e6) / ROUNDS,
    bytes: (folderBytes(c.dir) - bytes0.get(c)!) / ROUNDS,
  });
  return { small: figures(small), large: figures(large) };
}

function rows(name: string, f: { small: Figures; large: Figures }): BenchRow[] {
  const label = `${LARGE.toLocaleString('en')} records`;
  return [
    {
      name: `${name} at ${label}`,
      value: f.large.wallUs,
      unit: 'µs',
      baseline: f.small.wallUs,
      baselineName: '1,000 records',
      target: '<= 1.2',
    },
    {
      name: '  server CPU per call',
      value: f.large.cpuUs,
      unit: 'µs',
      baseline: f.small.cpuUs,
      baselineName: '1,000 records',
    },
    {
      name: '  bytes written per call',
      value: f.large.bytes,
      unit: 'B',
      baseline: f.small.bytes,
      baselineName: '1,000',
    },
  ];
}

const scale: BenchCase = {
  name: 'scale: one Company at 1,000 vs 100,000 records',
  async run() {
    const hash = await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1, maxmem: 32 * 1024 * 1024 });
    const root = mkdtempSync(join(tmpdir(), 'svc-bench-scale-rt-'));
    const started: Company[] = [];
    try {
      const small = await prepare(root, SMALL, hash);
      started.push(small);
      const large = await prepare(root, LARGE, hash);
      started.push(large);
      const message = await interleaved(small, large, (c) =>
        call(c.daemon.url, `/api/sessions/${c.sessionId}/messages`, c.headers, {
          text: 'one more message',
          from: 'user',
        }),
      );
      const quest = await interleaved(small, large, (c) =>
        call(c.daemon.url, '/api/quests', c.headers, { title: 'a new quest', agent_id: c.agentId }),
      );
      const trigger = await interleaved(small, large, async (c) => {
        const res = await call(c.daemon.url, '/api/events/trigger', c.headers, {
          type: 'webhook:bench',
          content: { n: 1 },
        });
        if (res.fired?.length !== 1 || !res.fired[0].ok) throw new Error('the trigger did not fire its one tool call');
      });
      return [
        ...rows('append a session message', message),
        ...rows('create a quest', quest),
        ...rows('trigger firing one tool call', trigger),
      ];
    } finally {
      for (const c of started) await c.daemon.stop();
      rmSync(root, { recursive: true, force: true });
    }
  },
};
export default scale;
