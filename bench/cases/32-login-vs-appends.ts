import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import type { BenchCase } from '../harness.js';
import { companyOwner, PROOF_PASSWORD } from '../../tests/proof/lib/accounts.js';
import { call } from '../../tests/proof/lib/client.js';
import { percentile, startProofDaemon } from '../../tests/proof/lib/daemon.js';

/**
 * Event appends on a real daemon (default scrypt cost, file storage, fsync per append) alone, then
 * while 8 clients log in with passwords (half of them unknown e-mails): password hashes must not
 * take the threads the appends' fsyncs need (daemon/auth/hash-pool.ts says why they would). Each
 * login client comes from its own loopback address (127.0.0.10+i), so the per-address throttle
 * does not stop the load. Reports appends/s and p99 in both phases, logins/s, and the daemon's RSS peak.
 */
const appendsVsLogins: BenchCase = {
  name: 'appends while 8 clients log in',
  async run(env) {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-logins-'));
    const daemon = await startProofDaemon(dataDir);
    try {
      const w = await companyOwner(daemon.url, dataDir, 'bench-appends@example.com');
      const seconds = Math.max(env.duration, 8);
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, daemon.rss() ?? 0)), 100);
      const appendFor = async (until: number) => {
        const ms: number[] = [];
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            while (Date.now() < until) {
              const a = await call(daemon.url, '/api/events/trigger', {
                headers: w.tenant,
                body: { type: 'agent:bench' },
              });
              if (a.status === 200) ms.push(a.ms);
            }
          }),
        );
        return {
          rate: ms.length / seconds,
          p99: percentile(
            ms.sort((a, b) => a - b),
            99,
          ),
        };
      };
      const alone = await appendFor(Date.now() + seconds * 1000);
      let logins = 0;
      const until = Date.now() + seconds * 1000;
      const loginClients = Array.from({ length: 8 }, async (_, i) => {
        // localAddress on the Agent itself: undici ignores it under `connect`.
        const dispatcher = new Agent({ localAddress: `127.0.0.${10 + i}` });
        while (Date.now() < until) {
          const email = i % 2 ? w.owner.email : `nobody-${i}@example.com`;
          const res = await fetch(`${daemon.url}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password: i % 2 ? PROOF_PASSWORD : 'wrong password 1234' }),
            dispatcher,
          } as RequestInit);
          await res.text();
          if (res.status === 200 || res.status === 401) logins++;
        }
        await dispatcher.close();
      });
      const [busy] = await Promise.all([appendFor(until), ...loginClients]);
      clearInterval(sampler);
      return [
        { name: 'appends/s, alone', value: alone.rate, unit: 'appends/s' },
        { name: 'append p99, alone', value: alone.p99, unit: 'ms' },
        {
          name: 'appends/s, 8 clients logging in',
          value: busy!.rate,
          unit: 'appends/s',
          baseline: alone.rate,
          baselineName: 'alone',
        },
        { name: 'append p99, 8 clients logging in', value: busy!.p99, unit: 'ms' },
        { name: 'password logins answered', value: logins / seconds, unit: 'logins/s' },
        { name: 'daemon RSS peak', value: peak / 1024 / 1024, unit: 'MB' },
      ];
    } finally {
      await daemon.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
export default appendsVsLogins;
