import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashPassword } from '../../daemon/auth/passwords.js';
import type { BenchCase } from '../harness.js';
import { login } from '../scale/daemon-at-scale.js';
import { inProcessDaemon } from '../scale/in-process.js';
import { seedAccounts } from '../scale/seed-accounts.js';
import { seedRuntimeRecords } from '../scale/seed-runtime.js';

/**
 * Issue 13's per-Company figures: appending a session message, creating a quest, and a trigger
 * that fires one tool call, in a Company holding 1,000 records and one holding 100,000 (half of
 * them the session's transcript, half quests), in one run.
 */
const SMALL = 1_000;
const LARGE = Number(process.env.SVC_BENCH_SCALE_RECORDS ?? 100_000);
const PASSWORD = 'a benchmark password';
const ROUNDS = 100;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function call(url: string, path: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${json?.error}`);
  return json;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    await fn();
    times.push((performance.now() - t0) * 1000);
  }
  return median(times);
}

async function measureAt(root: string, records: number, hash: string) {
  const seeded = await seedAccounts(join(root, `c${records}`), 4, hash);
  let d = await inProcessDaemon(seeded.dataDir);
  let h = { authorization: `Bearer ${await login(d.url, seeded.email, PASSWORD)}`, 'x-company': seeded.companyId };
  const agent = (await call(d.url, '/api/agents', h, { name: 'bench' })).agent;
  const session = (await call(d.url, '/api/sessions', h, { agent_id: agent.id })).session;
  await call(d.url, '/api/events', h, {
    type: 'webhook:bench',
    tool_calls: [{ tool: 'quests.create', args: { title: 'from a trigger' } }],
  });
  await d.stop();
  await seedRuntimeRecords(seeded.dataDir, seeded.companyId, session.id, records);
  d = await inProcessDaemon(seeded.dataDir);
  try {
    h = { ...h, authorization: `Bearer ${await login(d.url, seeded.email, PASSWORD)}` };
    const message = await timed(() =>
      call(d.url, `/api/sessions/${session.id}/messages`, h, { text: 'one more message', from: 'user' }),
    );
    const quest = await timed(() => call(d.url, '/api/quests', h, { title: 'a new quest', agent_id: agent.id }));
    const trigger = await timed(async () => {
      const res = await call(d.url, '/api/events/trigger', h, { type: 'webhook:bench', content: { n: 1 } });
      if (res.fired?.length !== 1 || !res.fired[0].ok) throw new Error('the trigger did not fire its one tool call');
    });
    return { message, quest, trigger };
  } finally {
    await d.stop();
  }
}

const scale: BenchCase = {
  name: 'scale: one Company at 1,000 vs 100,000 records',
  async run() {
    const hash = await hashPassword(PASSWORD, { N: 2 ** 10, r: 8, p: 1, maxmem: 32 * 1024 * 1024 });
    const root = mkdtempSync(join(tmpdir(), 'svc-bench-scale-rt-'));
    try {
      const s = await measureAt(root, SMALL, hash);
      const l = await measureAt(root, LARGE, hash);
      const label = `${LARGE.toLocaleString('en')} records`;
      const base = { unit: 'µs', baselineName: '1,000 records', target: '<= 1.2' };
      return [
        { name: `append a session message at ${label}`, value: l.message, baseline: s.message, ...base },
        { name: `create a quest at ${label}`, value: l.quest, baseline: s.quest, ...base },
        { name: `trigger firing one tool call at ${label}`, value: l.trigger, baseline: s.trigger, ...base },
      ];
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
export default scale;
