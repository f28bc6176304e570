/**
 * `npm run load`: N clients for D seconds against a real daemon, mixing password logins, MCP
 * calls, event appends, profile reads and followers (long-poll and SSE). Violations: any error
 * but an intended 429, and an acknowledged event that did not reach every follower. Prints
 * p50/p99 per route and RSS before/peak/after; exits 1 on a violation.
 *   --clients N (SVC_LOAD_CLIENTS, default 50)   --seconds S (SVC_LOAD_SECONDS, default 60)
 *   --database URL: team mode, two daemons on that (empty, throwaway) PostgreSQL database; clients
 *   and followers are spread over both, so every follower must also see what the other daemon took.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { companyOwner, PROOF_PASSWORD } from './lib/accounts.js';
import { bearer, call, expectStatus, type Answer } from './lib/client.js';
import { databaseOption, option, percentile, readFlags, startProofDaemon } from './lib/daemon.js';
import { followByLongPoll, followBySse, type Follower } from './lib/followers.js';

export interface LoadReport {
  clients: number;
  seconds: number;
  requests: number;
  appends: number;
  throttled: number;
  routes: { route: string; count: number; p50: number; p99: number }[];
  rss: { before: number; peak: number; after: number };
  violations: string[];
}

const MB = 1024 * 1024;

export async function runLoad(opts: {
  clients: number;
  seconds: number;
  out?: (l: string) => void;
  /** Team mode: two daemons on this PostgreSQL database instead of one on a data folder. */
  database?: string;
}): Promise<LoadReport> {
  const dirs = (opts.database ? [1, 2] : [1]).map(() => mkdtempSync(join(tmpdir(), 'svc-load-')));
  const daemons = await Promise.all(
    dirs.map((dir) => startProofDaemon(dir, {}, opts.database ? ['--database', opts.database] : [])),
  );
  const [daemon, dataDir] = [daemons[0]!, dirs[0]!];
  const url = daemon.url;
  /** Client or follower `i`'s daemon: with two, every other one is on the second. */
  const urlOf = (i: number) => daemons[i % daemons.length]!.url;
  const rssNow = () => daemons.reduce((sum, d) => sum + (d.rss() ?? 0), 0);
  const world = await companyOwner(url, dataDir, 'load-owner@example.com');
  const mcpHeaders = { ...bearer(world.sk), accept: 'application/json, text/event-stream' };
  const start = expectStatus(
    await call(url, '/api/events/trigger', { headers: world.tenant, body: { type: 'agent:load' } }),
    200,
    'first event',
  ).body.event.id as string;

  const latencies = new Map<string, number[]>();
  const violations: string[] = [];
  const acked = new Set<string>();
  let throttled = 0;
  const record = (route: string, a: Answer, ok: number[]) => {
    (latencies.get(route) ?? latencies.set(route, []).get(route)!).push(a.ms);
    if (a.status === 429) throttled++;
    else if (!ok.includes(a.status)) violations.push(`${route} → ${a.status} ${a.text.slice(0, 160)}`);
  };

  const followerCount = Math.max(2 * daemons.length, Math.floor(opts.clients / 10) * 2);
  // Long-poll and SSE followers alike on every daemon (pairs: follower 2k and 2k+1 share one).
  const followers: Follower[] = Array.from({ length: followerCount }, (_, i) =>
    i % 2 === 0
      ? followByLongPoll(urlOf(i >> 1), world.tenant, 'agent:load', start)
      : followBySse(urlOf(i >> 1), world.tenant, 'agent:load', start),
  );
  const rss = { before: rssNow(), peak: 0, after: 0 };
  const sampler = setInterval(() => (rss.peak = Math.max(rss.peak, rssNow())), 200);
  const deadline = Date.now() + opts.seconds * 1000;

  const client = async (i: number) => {
    const role = i % 8;
    // Each role has clients on every daemon (i and i + 8 differ in their daemon when there are two).
    const url = urlOf(i >> 3);
    let n = 0;
    while (Date.now() < deadline) {
      n++;
      if (role === 0) {
        record(
          'POST /api/auth/login',
          await call(url, '/api/auth/login', { body: { email: world.owner.email, password: PROOF_PASSWORD } }),
          [200],
        );
      } else if (role <= 2) {
        const body = {
          jsonrpc: '2.0',
          id: n,
          method: 'tools/call',
          params: { name: role === 1 ? 'whoami' : 'quests', arguments: role === 1 ? {} : { action: 'list' } },
        };
        const a = await call(url, '/api/mcp', { headers: mcpHeaders, body });
        record('POST /api/mcp tools/call', a, [200]);
        if (a.status === 200 && a.body?.error)
          violations.push(`MCP error: ${JSON.stringify(a.body.error).slice(0, 160)}`);
      } else if (role <= 6) {
        const a = await call(url, '/api/events/trigger', {
          headers: world.tenant,
          body: { type: 'agent:load', content: { client: i, n } },
        });
        record('POST /api/events/trigger', a, [200]);
        if (a.status === 200) acked.add(a.body.event.id);
      } else {
        record('GET /api/me', await call(url, '/api/me', { headers: world.owner.auth }), [200]);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.clients - followerCount }, (_, i) => client(i)));

  // Every acknowledged event must reach every follower (they get 15 s to catch up).
  for (
    let waited = 0;
    waited < 15_000 && followers.some((f) => [...acked].some((id) => !f.seen.has(id)));
    waited += 200
  )
    await new Promise((r) => setTimeout(r, 200));
  await Promise.all(followers.map((f) => f.stop()));
  followers.forEach((f, i) => {
    const missing = [...acked].filter((id) => !f.seen.has(id)).length;
    if (missing)
      violations.push(
        `follower ${i} (${i % 2 === 0 ? 'long-poll' : 'SSE'}) missed ${missing} of ${acked.size} acknowledged events`,
      );
    violations.push(...f.errors.map((e) => `follower ${i}: ${e}`));
  });
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 2000));
  rss.after = rssNow();
  await Promise.all(daemons.map((d) => d.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  const routes = [...latencies].map(([route, ms]) => {
    const sorted = ms.sort((a, b) => a - b);
    return { route, count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  });
  return {
    clients: opts.clients,
    seconds: opts.seconds,
    requests: routes.reduce((s, r) => s + r.count, 0),
    appends: acked.size,
    throttled,
    routes,
    rss,
    violations,
  };
}

export function formatLoad(r: LoadReport): string[] {
  return [
    `load: ${r.clients} clients for ${r.seconds} s: ${r.requests} requests, ${r.appends} acknowledged appends (each seen by every follower unless listed below), ${r.throttled} intended 429s; ${r.violations.length} violations`,
    ...r.routes.map(
      (x) =>
        `  ${x.route.padEnd(28)} ${String(x.count).padStart(7)} requests  p50 ${x.p50.toFixed(1)} ms  p99 ${x.p99.toFixed(1)} ms`,
    ),
    `  RSS before ${(r.rss.before / MB).toFixed(0)} MB, peak ${(r.rss.peak / MB).toFixed(0)} MB, after ${(r.rss.after / MB).toFixed(0)} MB`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const flags = readFlags('load', () => ({
    clients: option('clients', 'SVC_LOAD_CLIENTS', 50),
    seconds: option('seconds', 'SVC_LOAD_SECONDS', 60),
    // Team mode, on a throwaway database only: the load writes into it.
    ...databaseOption(),
  }));
  const report = await runLoad(flags);
  process.stdout.write(formatLoad(report).join('\n') + '\n');
  for (const v of report.violations.slice(0, 50)) process.stdout.write(`  VIOLATION ${v}\n`);
  process.exit(report.violations.length ? 1 : 0);
}
