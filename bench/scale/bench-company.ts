import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { companyDataDir } from '../../daemon/company/seam.js';
import { startServer, type Started } from '../harness.js';
import { login } from './daemon-at-scale.js';
import { inProcessDaemon } from './in-process.js';
import { seedAccounts } from './seed-accounts.js';
import { seedRuntimeRecords } from './seed-runtime.js';

/** A seeded Company for 91-scale-runtime.ts, served by a daemon process of its own. */
export const PASSWORD = 'a benchmark password';
const serve = fileURLToPath(new URL('./serve-in-process.js', import.meta.url));

export async function call(url: string, path: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${json?.error}`);
  return json;
}

export interface Company {
  dir: string;
  daemon: Started;
  headers: Record<string, string>;
  agentId: string;
  sessionId: string;
}

/** A Company with `records` records, served by its own daemon process. */
export async function prepare(root: string, records: number, hash: string): Promise<Company> {
  const seeded = await seedAccounts(join(root, `c${records}`), 4, hash);
  const d = await inProcessDaemon(seeded.dataDir);
  const h = { authorization: `Bearer ${await login(d.url, seeded.email, PASSWORD)}`, 'x-company': seeded.companyId };
  const agent = (await call(d.url, '/api/agents', h, { name: 'bench' })).agent;
  const session = (await call(d.url, '/api/sessions', h, { agent_id: agent.id })).session;
  await call(d.url, '/api/events', h, {
    type: 'webhook:bench',
    tool_calls: [{ tool: 'quests.create', args: { title: 'from a trigger' } }],
  });
  await d.stop();
  await seedRuntimeRecords(seeded.dataDir, seeded.companyId, session.id, records);
  const daemon = await startServer(serve, [seeded.dataDir]);
  const headers = { ...h, authorization: `Bearer ${await login(daemon.url, seeded.email, PASSWORD)}` };
  return {
    dir: companyDataDir(seeded.dataDir, seeded.companyId),
    daemon,
    headers,
    agentId: agent.id,
    sessionId: session.id,
  };
}
