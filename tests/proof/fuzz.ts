/**
 * `npm run fuzz`: hostile requests against a real daemon over loopback, in two parts. The sweep
 * puts each hostile value a store may refuse (NUL, invalid UTF-8, huge, SQL metacharacters,
 * numbers and dates out of range, prototype names) in every single query parameter, path
 * parameter and body field of every route (found by running the routes, so a new one is covered)
 * and every argument of every MCP tool. Then generated bad requests: wrong types, missing and
 * extra fields, huge and deep JSON, odd headers, every HTTP method. Violations: a 5xx, a hang (no
 * answer in 15 s), /healthz not answering, an MCP tool that failed unexpectedly, an error in the
 * daemon's log, and a refused request that changed the records on disk. Exits 1 on a violation.
 *   --requests N (SVC_FUZZ_REQUESTS, default 10000: the generated part)
 *   --sweep all|quick|off (SVC_FUZZ_SWEEP, default all; quick: NUL and one other value per slot)
 *   --concurrency N (SVC_FUZZ_CONCURRENCY, default 8)   --database postgres://… (team mode)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allRoutes, idsOf, realIdIn, setUp, slotProbes } from '../daemon/http/robustness-world.js';
import { validTemplates } from '../daemon/http/robustness-templates.js';
import { isCompanyPath } from '../helpers/bad-inputs.js';
import { discoverSlots } from '../helpers/input-slots.js';
import { companyOwner } from './lib/accounts.js';
import { bearer, call, operatorHeaders } from './lib/client.js';
import { choiceOption, databaseOption, option, readFlags, startProofDaemon } from './lib/daemon.js';
import { databaseDigest, recordsDigest } from './lib/digest.js';
import { generate, type FuzzRequest } from './lib/fuzz-cases.js';
import { runBatches } from './lib/fuzz-run.js';
import { makeFixtures } from './lib/fuzz-fixtures.js';
import { SWEEP_DEPTHS, sweepRoutes, type SweepDepth } from './lib/fuzz-sweep.js';
import { randomToolCalls, sweepTools, type ListedTool } from './lib/fuzz-tools.js';

/** Run last: they can end the session the fuzz uses, or the records its other requests aim at. */
const RUN_LAST = /logout|revoke|^DELETE |\/stop$/;

export interface FuzzReport {
  requests: number;
  /** Of which the sweep's one-slot-at-a-time requests. */
  swept: number;
  routes: number;
  tools: number;
  byStatus: Record<string, number>;
  violations: string[];
}

export async function runFuzz(opts: {
  requests: number;
  concurrency: number;
  sweep?: SweepDepth;
  out?: (l: string) => void;
  /** Team mode: the daemon runs on this (empty, throwaway) PostgreSQL database, and the records checked are its rows. */
  database?: string;
}): Promise<FuzzReport> {
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-fuzz-'));
  // The tool-call limit off: the sweep's tool calls must reach the tools, not a 429.
  const daemon = await startProofDaemon(
    dataDir,
    { SVC_MCP_TOOL_CALLS_PER_MINUTE: '0' },
    opts.database ? ['--database', opts.database] : [],
  );
  const url = daemon.url;
  const world = await companyOwner(url, dataDir, 'fuzz-owner@example.com');
  const fixtures = await makeFixtures(url, world.tenant, dataDir);
  const ids = idsOf(fixtures);

  // The route table and each route's inputs, read from an in-memory app of the same code.
  const local = await setUp();
  const routes = allRoutes(local);
  const slots = await discoverSlots(local.t, routes, slotProbes(local, validTemplates(local)));
  await local.t.close();
  const session = { token: world.owner.token };
  const target = {
    templates: validTemplates({
      owner: { user: { email: world.owner.email } },
      company: world.company,
      ids,
      invite: fixtures.invite,
    }),
    realId: (path: string) => realIdIn(ids, path),
    auth: (path: string): Record<string, string> => {
      if (path.startsWith('/api/dev/')) return operatorHeaders(dataDir);
      if (path.startsWith('/api/mcp')) return { ...bearer(world.sk), accept: 'application/json, text/event-stream' };
      return isCompanyPath(path) ? { ...bearer(session.token), 'x-company': world.company.id } : bearer(session.token);
    },
  };
  const mcp = { 'content-type': 'application/json', ...target.auth('/api/mcp') };
  const tools = await listTools(url, mcp);

  const depth = opts.sweep ?? 'all';
  const swept = [...sweepRoutes(slots, target, depth), ...sweepTools(tools, ids, mcp, depth)];
  const toolShare = tools.length ? Math.floor(opts.requests / 10) : 0;
  const generated = [...randomToolCalls(tools, mcp, toolShare), ...generate(routes, target, opts.requests - toolShare)];
  const runLast = (r: FuzzRequest) => RUN_LAST.test(r.route);
  const queue = [...swept, ...generated].sort((a, b) => Number(runLast(a)) - Number(runLast(b)));

  const result = await runBatches(queue, {
    url,
    concurrency: opts.concurrency,
    daemonLog: daemon.log,
    digest: async () => (opts.database ? await databaseDigest(opts.database) : recordsDigest(dataDir)),
    session,
    email: world.owner.email,
    out,
  });
  await daemon.stop();
  rmSync(dataDir, { recursive: true, force: true });
  return { requests: queue.length, swept: swept.length, routes: routes.length, tools: tools.length, ...result };
}

async function listTools(url: string, headers: Record<string, string>): Promise<ListedTool[]> {
  const listed = await call(url, '/api/mcp', { headers, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
  return (listed.body?.result?.tools ?? []) as ListedTool[];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const flags = readFlags('fuzz', () => ({
    requests: option('requests', 'SVC_FUZZ_REQUESTS', 10_000),
    concurrency: option('concurrency', 'SVC_FUZZ_CONCURRENCY', 8),
    sweep: choiceOption('sweep', 'SVC_FUZZ_SWEEP', SWEEP_DEPTHS, 'all'),
    // Team mode, on a throwaway database only: the fuzz writes junk into it.
    ...databaseOption(),
  }));
  const report = await runFuzz(flags);
  const counts = Object.entries(report.byStatus)
    .sort()
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  process.stdout.write(
    `\nfuzz: ${report.requests} requests (${report.swept} of the sweep) over ${report.routes} routes and ${report.tools} MCP tools in ${((Date.now() - started) / 1000).toFixed(0)} s; by status ${counts}; ${report.violations.length} violations\n`,
  );
  for (const v of report.violations.slice(0, 50)) process.stdout.write(`  VIOLATION ${v}\n`);
  process.exit(report.violations.length ? 1 : 0);
}
