import { Worker } from 'node:worker_threads';
import { DEFAULT_AUTH } from '../../../daemon/config.js';
import { type Interval, type Schedule, waitForWindow } from './load-phases.js';

const SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', (p) => {
  scryptSync('proof password 1234', 'load-burner-salt', 64, { N: p.N, r: p.r, p: p.p, maxmem: p.maxmem });
  parentPort.postMessage('done');
});`;

/**
 * The stand-in for the logins in the windows without them: `threads` threads hashing with the
 * daemon's own scrypt cost, in this process. On two cores the daemon's two hashing threads take
 * half the machine whatever the daemon does right, so appends measured against an idle machine
 * would halve by arithmetic alone; against these they change only by what the daemon does wrong
 * (appends waiting on hashes, a lock, the event loop blocked). Returns when each hash ran (performance.now()).
 */
export async function burnHashes(schedule: Schedule, deadline: number, threads: number): Promise<Interval[]> {
  const N = Number(process.env.SVC_TEST_SCRYPT_N ?? DEFAULT_AUTH.passwordHash.N);
  const params = { ...DEFAULT_AUTH.passwordHash, N };
  const burns: Interval[] = [];
  const burner = async () => {
    const worker = new Worker(SOURCE, { eval: true });
    try {
      for (;;) {
        const wait = waitForWindow(schedule, performance.now(), false);
        if (wait === null || performance.now() + wait >= deadline) break;
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const from = performance.now();
        await new Promise<void>((resolve, reject) => {
          worker.once('error', reject);
          worker.once('message', () => resolve(void worker.off('error', reject)));
          worker.postMessage(params);
        });
        burns.push({ from, to: performance.now() });
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: threads }, burner));
  return burns;
}
