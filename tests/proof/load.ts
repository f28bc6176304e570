/**
 * `npm run load`: N clients for D seconds against a real daemon, mixing password logins, MCP
 * calls, event appends, profile reads and followers (long-poll and SSE). The login clients run
 * only in every other pair of windows (lib/load-phases.ts), so one run measures appends per second
 * with and without them. Violations: any error, a 429 no client asked for (lib/load-clients.ts),
 * an acknowledged event that did not reach every follower. Bounds: appends while logins run keep
 * at least half their rate without them, and each route's p99 stays within its bound. Prints the
 * rates, p50/p99 per route and RSS before/peak/after; exits 1 on a violation or a bound crossed.
 *   --clients N (SVC_LOAD_CLIENTS, default 50)   --seconds S (SVC_LOAD_SECONDS, default 60)
 *   --database URL: team mode, two daemons on that (empty, throwaway) PostgreSQL database; clients
 *   and followers are spread over both, so every follower must also see what the other daemon took.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { companyOwner } from './lib/accounts.js';
import { call, expectStatus, type Answer } from './lib/client.js';
import { databaseOption, option, readFlags, startProofDaemon } from './lib/daemon.js';
import { followByLongPoll, followBySse, type Follower } from './lib/followers.js';
import { burnHashes } from './lib/hash-burner.js';
import {
  appendClient,
  type ClientRun,
  HASH_THREADS,
  loginClient,
  mcpClient,
  profileClient,
  ROUTES,
} from './lib/load-clients.js';
import {
  checkBounds,
  makeSchedule,
  MIN_APPEND_RATIO,
  type RouteFigures,
  type Sample,
  type Starvation,
  summarize,
} from './lib/load-phases.js';

export interface LoadReport {
  clients: number;
  seconds: number;
  requests: number;
  appends: number;
  /** 429s the clients asked for (throttles they exceeded on purpose); any other 429 is a violation. */
  throttled: number;
  loginClients: number;
  starvation: Starvation;
  routes: RouteFigures[];
  rss: { before: number; peak: number; after: number };
  /** Wrong answers: an error, a 429 no client asked for, an acknowledged event a follower missed. */
  violations: string[];
  /** Bounds crossed: appends starved by logins, a p99 past its bound (docs/robustness.md). */
  breaches: string[];
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
  const start = expectStatus(
    await call(url, '/api/events/trigger', { headers: world.tenant, body: { type: 'agent:load' } }),
    200,
    'first event',
  ).body.event.id as string;

  const followerCount = Math.max(2 * daemons.length, Math.floor(opts.clients / 10) * 2);
  const clientCount = opts.clients - followerCount;
  // Roles by i % 8: 0 logs in, 1–2 call MCP tools (each client with a key of its own), 3–6 append, 7 reads.
  const mcpKeys = new Map<number, string>();
  for (let i = 0; i < clientCount; i++)
    if (i % 8 === 1 || i % 8 === 2) {
      const body = { root: world.company.id, name: `load-${i}` };
      const key = expectStatus(await call(url, '/api/keys', { headers: world.owner.auth, body }), 201, 'key');
      mcpKeys.set(i, key.body.secret_key);
    }

  const samples: Sample[] = [];
  const violations: string[] = [];
  const acked = new Set<string>();
  let throttled = 0;
  const record = (sample: Sample, a: Answer, ok: number[], deserved429: boolean) => {
    samples.push(sample);
    if (a.status === 429 && deserved429) throttled++;
    else if (a.status === 429) violations.push(`${sample.route} → 429 no client asked for: ${a.text.slice(0, 160)}`);
    else if (!ok.includes(a.status)) violations.push(`${sample.route} → ${a.status} ${a.text.slice(0, 160)}`);
    else if (sample.route === ROUTES.mcp && a.body?.error)
      violations.push(`MCP error: ${JSON.stringify(a.body.error).slice(0, 160)}`);
  };

  // Long-poll and SSE followers alike on every daemon (pairs: follower 2k and 2k+1 share one).
  const followers: Follower[] = Array.from({ length: followerCount }, (_, i) =>
    i % 2 === 0
      ? followByLongPoll(urlOf(i >> 1), world.tenant, 'agent:load', start)
      : followBySse(urlOf(i >> 1), world.tenant, 'agent:load', start),
  );
  const rss = { before: rssNow(), peak: 0, after: 0 };
  const sampler = setInterval(() => (rss.peak = Math.max(rss.peak, rssNow())), 200);
  const schedule = makeSchedule(opts.seconds, performance.now());
  const run: ClientRun = { deadline: schedule.start + opts.seconds * 1000, schedule, record };
  // Login clients per daemon (client i is on daemon (i >> 3) % n), and so the hashing threads they keep busy.
  const loginsOn = daemons.map((_, d) =>
    Array.from({ length: clientCount }, (_, i) => i).filter((i) => i % 8 === 0 && (i >> 3) % daemons.length === d),
  );
  const burning = burnHashes(
    schedule,
    run.deadline,
    loginsOn.reduce((sum, l) => sum + Math.min(l.length, HASH_THREADS), 0),
  );

  const client = (i: number) => {
    const role = i % 8;
    // Each role has clients on every daemon (i and i + 8 differ in their daemon when there are two).
    const url = urlOf(i >> 3);
    if (role === 0) return loginClient(run, url, world, i >> 3);
    if (role <= 2) return mcpClient(run, url, mcpKeys.get(i)!, role === 1 ? 'whoami' : 'quests');
    if (role <= 6) return appendClient(run, url, world, i, acked);
    return profileClient(run, url, world);
  };
  await Promise.all(Array.from({ length: clientCount }, (_, i) => client(i)));
  const burns = await burning;

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
  const { routes, starvation } = summarize(schedule, samples, burns, ROUTES);
  const hashesPerLogin = Math.max(...loginsOn.map((l) => Math.ceil(l.length / HASH_THREADS)));
  return {
    clients: opts.clients,
    seconds: opts.seconds,
    requests: samples.length,
    appends: acked.size,
    throttled,
    loginClients: loginsOn.flat().length,
    starvation,
    routes,
    rss,
    violations,
    breaches: checkBounds(starvation, routes, { route: ROUTES.login, hashesPerLogin }),
  };
}

export function formatLoad(r: LoadReport): string[] {
  const s = r.starvation;
  const ms = (v: number | null) => (v === null ? '-' : v.toFixed(0));
  return [
    `load: ${r.clients} clients for ${r.seconds} s: ${r.requests} requests, ${r.appends} acknowledged appends (each seen by every follower unless listed below), ${r.throttled} intended 429s; ${r.violations.length} violations, ${r.breaches.length} bounds crossed`,
    `  appends/s: ${s.appendsPerSecondWithout.toFixed(1)} without logins (${s.secondsWithout.toFixed(0)} s, as many threads hashing in the load's own process), ${s.appendsPerSecondWith.toFixed(1)} while ${r.loginClients} clients log in (${s.secondsWith.toFixed(0)} s): ratio ${s.ratio.toFixed(2)} (bound ${MIN_APPEND_RATIO}); one hash ${s.hashMs.toFixed(0)} ms`,
    `  ${'route'.padEnd(28)} ${'requests'.padStart(8)} ${'429s'.padStart(6)}  p50 / p99 ms  (p99 without logins / with)`,
    ...r.routes.map(
      (x) =>
        `  ${x.route.padEnd(28)} ${String(x.count).padStart(8)} ${String(x.throttled).padStart(6)}  ${x.p50.toFixed(1)} / ${x.p99.toFixed(1)}  (${ms(x.p99Without)} / ${ms(x.p99With)})`,
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
  for (const b of report.breaches) process.stdout.write(`  BOUND ${b}\n`);
  for (const v of report.violations.slice(0, 50)) process.stdout.write(`  VIOLATION ${v}\n`);
  process.exit(report.violations.length || report.breaches.length ? 1 : 0);
}
