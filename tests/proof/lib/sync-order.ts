import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { companyOwner } from './accounts.js';
import { bearer, call } from './client.js';
import { startProofDaemon } from './daemon.js';
import { checkSyncOrder, parseTrace, straceCommand, straceUnavailable } from './strace-log.js';

export interface SyncOrderReport {
  /** Acknowledged writes whose order was checked. */
  checked: number;
  /** Why the check did not run (no strace, or no ptrace here), else null. */
  skipped: string | null;
  violations: string[];
}

/**
 * The half of durability a SIGKILL cannot show: a killed process leaves its writes in the page
 * cache, so a daemon that never syncs survives every kill cycle. Here the daemon runs under strace
 * while writers append events, create quests and keys, and call with a secret key (whose audit
 * entry is the write, found by its request id); then, for every write it acknowledged, the trace
 * must show the file written, then synced, then the answer sent (strace-log.ts).
 */
export async function runSyncOrder(opts: { seconds: number; writers: number }): Promise<SyncOrderReport> {
  const skipped = straceUnavailable();
  if (skipped) return { checked: 0, skipped, violations: [] };
  const work = mkdtempSync(join(tmpdir(), 'svc-sync-order-'));
  const dataDir = join(work, 'data');
  const traceFile = join(work, 'trace.txt');
  const daemon = await startProofDaemon(dataDir, {}, [], straceCommand(traceFile));
  const acked: string[] = [];
  try {
    const world = await companyOwner(daemon.url, dataDir, 'sync-order@example.com');
    const until = Date.now() + opts.seconds * 1000;
    const writer = async () => {
      for (let i = 0; Date.now() < until; i++) {
        const pick = i % 5;
        if (pick < 2) {
          const a = await call(daemon.url, '/api/events/trigger', {
            headers: world.tenant,
            body: { type: 'agent:proof', content: { i } },
          });
          if (a.status === 200) acked.push(a.body.event.id);
        } else if (pick === 2) {
          const a = await call(daemon.url, '/api/quests', { headers: world.tenant, body: { title: `q${i}` } });
          if (a.status === 201) acked.push(a.body.quest.id);
        } else if (pick === 4) {
          const a = await call(daemon.url, '/api/mcp/validate', { method: 'POST', headers: bearer(world.sk) });
          const requestId = a.headers?.get('x-request-id');
          if (a.status === 200 && requestId) acked.push(requestId);
        } else {
          const body = { root: world.company.id, name: `k${i}` };
          const a = await call(daemon.url, '/api/keys', { headers: world.owner.auth, body });
          if (a.status === 201) acked.push(a.body.id);
        }
      }
    };
    await Promise.all(Array.from({ length: opts.writers }, writer));
  } finally {
    await daemon.stop();
  }
  const violations = checkSyncOrder(parseTrace(readFileSync(traceFile, 'utf8')), dataDir, acked);
  rmSync(work, { recursive: true, force: true });
  return { checked: acked.length, skipped: null, violations };
}
