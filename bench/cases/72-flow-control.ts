import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../daemon/clock.js';
import { createIdGenerator } from '../../daemon/ids.js';
import { cryptoRandom } from '../../daemon/random.js';
import { openCompanyRuntime } from '../../daemon/company/open-company.js';
import { createSealer } from '../../daemon/store/sealer.js';
import type { BenchCase, BenchRow } from '../harness.js';

/**
 * What flow control costs a trigger: the same rule (one quests.create) with and without a throttle
 * and a concurrency limit that never refuse, in process through real Company runtimes, sequential
 * emits. Each firing then counts its throttle, takes its slot and holds it (its quest stays open).
 * Wanted: within 10 % of plain.
 */
const N = 300;
const ROUNDS = 3;

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

async function open(storage: 'memory' | 'file', flow: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-flow-'));
  const timer = { set: () => null, clear: () => {} };
  const runtime = await openCompanyRuntime({
    company: { id: 'cmp_bench', name: 'bench', owner_id: 'usr_bench' },
    dir,
    storage,
    clock: systemClock,
    ids: createIdGenerator(systemClock, cryptoRandom),
    sealer: createSealer(randomBytes(32)),
    random: cryptoRandom,
    schedulerTimer: timer,
    retryTimer: timer,
  });
  const events = runtime.services.events;
  await events.create({
    type: 'webhook:bench',
    tool_calls: [{ tool: 'quests.create', args: { title: 'from the bench' } }],
    ...(flow && {
      throttle: { key: '{{event.content.k}}', limit: 100_000, period_ms: 3_600_000 },
      concurrency: { key: '{{event.content.k}}', limit: 1_000 },
    }),
  });
  const took: number[] = [];
  return {
    took,
    async emit(i: number) {
      const started = performance.now();
      const { fired } = await events.emit({ type: 'webhook:bench', content: { i, k: 'a' } });
      if (!fired[0]?.ok) throw new Error(`tool call: ${fired[0]?.error ?? 'held back'}`);
      if (i >= 20) took.push(performance.now() - started);
    },
    async close() {
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One round: a runtime with the plain rule and one with flow control, open side by side, each emit
 * made on both one after the other (which goes first alternating), so a burst of load from elsewhere
 * falls on both alike rather than on whichever round it happened in.
 */
async function measure(storage: 'memory' | 'file'): Promise<{ plain: number[]; flow: number[] }> {
  const plain = await open(storage, false);
  const flow = await open(storage, true);
  for (let i = 0; i < N; i++) {
    const [first, second] = i % 2 === 0 ? [plain, flow] : [flow, plain];
    await first.emit(i);
    await second.emit(i);
  }
  await Promise.all([plain.close(), flow.close()]);
  return { plain: plain.took, flow: flow.took };
}

const flowControl: BenchCase = {
  name: 'flow control',
  async run() {
    const rows: BenchRow[] = [];
    for (const storage of ['file', 'memory'] as const) {
      const plain: number[] = [];
      const flow: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const round = await measure(storage);
        plain.push(...round.plain);
        flow.push(...round.flow);
      }
      rows.push(
        { name: `${storage}: emit p50, rule without flow control`, value: quantile(plain, 0.5), unit: 'ms' },
        { name: `${storage}: emit p50, rule with throttle + concurrency`, value: quantile(flow, 0.5), unit: 'ms' },
        {
          name: `${storage}: emit p50, throttle + concurrency ÷ plain (≤ 1.10 wanted)`,
          value: quantile(flow, 0.5) / quantile(plain, 0.5),
          unit: 'x',
        },
        {
          name: `${storage}: emit p99, throttle + concurrency ÷ plain`,
          value: quantile(flow, 0.99) / quantile(plain, 0.99),
          unit: 'x',
        },
      );
    }
    return rows;
  },
};

export default flowControl;
