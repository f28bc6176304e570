import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScheduler } from '../../daemon/company/schedules/scheduler.js';
import type { ConfiguredEvent, EventsService } from '../../daemon/company/company-services.js';
import { openJournalRuntimeStores } from '../../daemon/store/runtime/open.js';
import type { BenchCase, BenchRow } from '../harness.js';

/**
 * The minute walk over 10 000 active schedules (target: < 100 ms, docs/performance.md), in process with a
 * durable tick store: a minute where nothing is due (most minutes), one where all 10 000 are due
 * (fires are stubbed: this measures the walker, not the bus), and 10 000 distinct expressions.
 */
const N = 10_000;

function stubEvents(types: (i: number) => string, createdAt: string): Pick<EventsService, 'listConfigured' | 'fire'> {
  const list: ConfiguredEvent[] = Array.from({ length: N }, (_, i) => ({
    id: `cfg_${String(i).padStart(6, '0')}`,
    type: types(i),
    tool_calls: [],
    agent_id: null,
    session_id: null,
    quest_id: null,
    enabled: true,
    status: 'active',
    timezone: null,
    created_at: createdAt,
  }));
  let n = 0;
  return {
    listConfigured: async () => list,
    fire: async (id) => ({
      event: {
        id: `ev_${++n}`,
        type: id,
        agent_id: null,
        session_id: null,
        quest_id: null,
        content: {},
        created_at: '',
        causation_id: null,
        correlation_id: '',
        source: 'schedule',
      },
      fired: [],
    }),
  };
}

/** Wall time and CPU time (user + system) of each walk, in ms: on a busy machine the CPU time is the steadier number. */
async function timeWalks(types: (i: number) => string, instants: number[]): Promise<{ wall: number[]; cpu: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-ticks-'));
  let now = instants[0]! - 30_000;
  const stores = await openJournalRuntimeStores(dir);
  const scheduler = createScheduler({
    clock: { now: () => now },
    events: stubEvents(types, new Date(now - 60_000).toISOString()),
    ticks: stores.ticks,
  });
  await scheduler.walk(); // first sight of every schedule: writes 10 000 cursors
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const at of instants) {
    now = at;
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    await scheduler.walk();
    const used = process.cpuUsage(cpuStart);
    wall.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
  return { wall, cpu };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const schedulerWalk: BenchCase = {
  name: 'scheduler minute walk',
  async run() {
    const hour = Date.parse('2026-01-15T13:00:00Z');
    const shared = ['* * * * *', '*/5 * * * *', '@hourly', '0 * * * *'];
    const mixed = (i: number) => `schedule:${shared[i % shared.length]}`;
    const idle = await timeWalks(
      (i) => `schedule:${i % 60} ${i % 24} * * *`,
      Array.from({ length: 15 }, (_, k) => hour + 2_000 * (k + 1)),
    );
    const allDue = await timeWalks(
      mixed,
      Array.from({ length: 15 }, (_, k) => hour + 3_600_000 * k + 250),
    );
    const distinct = await timeWalks(
      (i) => `schedule:${i % 60} ${Math.floor(i / 60) % 24} ${1 + (Math.floor(i / 1440) % 28)} * *`,
      Array.from({ length: 3 }, (_, k) => hour + 60_000 * (k + 1) + 250),
    );
    const rows: BenchRow[] = [
      {
        name: `walk, ${N} active, none due (median wall)`,
        value: median(idle.wall.slice(2)),
        unit: 'ms',
        target: '< 100',
      },
      { name: `walk, ${N} active, none due (median CPU)`, value: median(idle.cpu.slice(2)), unit: 'ms' },
      {
        name: `walk, ${N} active, all due (median wall)`,
        value: median(allDue.wall.slice(3)),
        unit: 'ms',
        target: '< 100',
      },
      { name: `walk, ${N} active, all due (median CPU)`, value: median(allDue.cpu.slice(3)), unit: 'ms' },
      { name: `walk, ${N} distinct expressions (median wall)`, value: median(distinct.wall), unit: 'ms' },
    ];
    return rows;
  },
};
export default schedulerWalk;
