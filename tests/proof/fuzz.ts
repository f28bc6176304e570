/**
 * `npm run fuzz`: generated bad requests over every route of the route table (so a new route is
 * covered without editing this file) and every MCP tool, against a real daemon over loopback:
 * wrong types, missing and extra fields, huge and deep JSON, invalid UTF-8, odd headers, every
 * HTTP method. Violations: a 5xx, a hang (no answer in 15 s), /healthz not answering, and a
 * refused request that changed the records on disk. Prints counts by status; exits 1 on a violation.
 *   --requests N (SVC_FUZZ_REQUESTS, default 10000)   --concurrency N (SVC_FUZZ_CONCURRENCY, default 8)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTenantPath } from '../../daemon/companies/tenant-selection.js';
import { allRoutes, idsOf, realIdIn, setUp } from '../daemon/http/robustness-world.js';
import { validTemplates } from '../daemon/http/robustness-templates.js';
import { BAD_VALUES } from '../helpers/bad-inputs.js';
import { companyOwner, PROOF_PASSWORD } from './lib/accounts.js';
import { bearer, call, expectStatus, operatorHeaders, type Answer } from './lib/client.js';
import { databaseOption, option, readFlags, startProofDaemon } from './lib/daemon.js';
import { databaseDigest, recordsDigest } from './lib/digest.js';
import { generate, type FuzzRequest } from './lib/fuzz-cases.js';

/** Refused requests on these routes write by design: a wrong code or a failed factor is counted on disk (SECURITY.md: tries per code). */
const COUNTS_ATTEMPTS =
  /\/api\/auth\/(verify|login\/code\/consume|totp|login\/totp|email\/confirm)|\/api\/me\/email\/confirm/;
/** Run last: they can end the session the fuzz uses. */
const ENDS_SESSIONS = /logout|revoke|\/api\/sessions\/:id$|\/api\/auth\/sessions/;

export interface FuzzReport {
  requests: number;
  routes: number;
  tools: number;
  byStatus: Record<string, number>;
  violations: string[];
}

export async function runFuzz(opts: {
  requests: number;
  concurrency: number;
  out?: (l: string) => void;
  /** Team mode: the daemon runs on this (empty, throwaway) PostgreSQL database, and the records checked are its rows. */
  database?: string;
}): Promise<FuzzReport> {
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-fuzz-'));
  const daemon = await startProofDaemon(dataDir, {}, opts.database ? ['--database', opts.database] : []);
  const digest = async () => (opts.database ? await databaseDigest(opts.database) : recordsDigest(dataDir)).digest;
  const url = daemon.url;
  const world = await companyOwner(url, dataDir, 'fuzz-owner@example.com');
  const agent = expectStatus(
    await call(url, '/api/agents', { headers: world.tenant, body: { name: 'ada', role: 'dev' } }),
    201,
    'agent',
  ).body.agent;
  const session = expectStatus(
    await call(url, '/api/sessions', { headers: world.tenant, body: { agent_id: agent.id } }),
    201,
    'session',
  ).body.session;
  const quest = expectStatus(
    await call(url, '/api/quests', { headers: world.tenant, body: { title: 'q' } }),
    201,
    'quest',
  ).body.quest;
  const configured = expectStatus(
    await call(url, '/api/events', { headers: world.tenant, body: { type: 'agent:thing', tool_calls: [] } }),
    201,
    'configured',
  ).body.event;
  const question = expectStatus(
    await call(url, '/api/questions', { headers: world.tenant, body: { agent_id: agent.id, question: 'ok?' } }),
    201,
    'question',
  ).body.question;
  const channel = expectStatus(
    await call(url, '/api/channels', { headers: world.tenant, body: { name: 'inbox' } }),
    201,
    'channel',
  ).body.channel;
  const invite = (await call(url, '/api/dev/invites', { method: 'POST', headers: operatorHeaders(dataDir) })).body.code;
  const ids = idsOf({ agent, session, quest, configured, question, channel });

  // The route table, read from the app's routers (an in-memory app: only its routes are used).
  const routes = allRoutes(await setUp()).sort(
    (a, b) => Number(ENDS_SESSIONS.test(a.path)) - Number(ENDS_SESSIONS.test(b.path)),
  );
  let token = world.owner.token;
  const target = {
    templates: validTemplates({ owner: { user: { email: world.owner.email } }, company: world.company, ids, invite }),
    realId: (path: string) => realIdIn(ids, path),
    auth: (path: string): Record<string, string> => {
      if (path.startsWith('/api/dev/')) return operatorHeaders(dataDir);
      if (path.startsWith('/api/mcp')) return { ...bearer(world.sk), accept: 'application/json, text/event-stream' };
      return isTenantPath(path) ? { ...bearer(token), 'x-company': world.company.id } : bearer(token);
    },
  };

  const tools = ((
    await call(url, '/api/mcp', {
      headers: target.auth('/api/mcp'),
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    })
  ).body?.result?.tools ?? []) as { name: string; inputSchema?: { properties?: Record<string, unknown> } }[];
  const toolCalls = (n: number): FuzzRequest[] =>
    Array.from({ length: n }, (_, i) => {
      const tool = tools[i % tools.length]!;
      const props = Object.keys(tool.inputSchema?.properties ?? {});
      const bad = BAD_VALUES[i % BAD_VALUES.length];
      const args =
        i % 3 === 0
          ? bad
          : i % 3 === 1
            ? Object.fromEntries(props.map((p) => [p, bad]))
            : { ...Object.fromEntries(props.slice(1).map((p) => [p, 'x'])), extra: bad };
      const raw = JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: tool.name, arguments: args },
      });
      return {
        route: `MCP ${tool.name}`,
        method: 'POST',
        path: '/api/mcp',
        headers: { 'content-type': 'application/json', ...target.auth('/api/mcp') },
        raw,
      };
    });

  const byStatus: Record<string, number> = {};
  const violations: string[] = [];
  const toolShare = tools.length ? Math.floor(opts.requests / 10) : 0;
  const generated = [...toolCalls(toolShare), ...generate(routes, target, opts.requests - toolShare)];
  const queue = [
    ...generated.filter((r) => !ENDS_SESSIONS.test(r.route)),
    ...generated.filter((r) => ENDS_SESSIONS.test(r.route)),
  ];
  const unauthorized: Record<string, number> = {};
  let before = await digest();
  const BATCH = opts.concurrency * 5;
  for (let start = 0; start < queue.length; start += BATCH) {
    const batch = queue.slice(start, start + BATCH);
    const answers: [FuzzRequest, Answer][] = [];
    for (let i = 0; i < batch.length; i += opts.concurrency) {
      const slice = batch.slice(i, i + opts.concurrency);
      const got = await Promise.all(
        slice.map((r) =>
          call(url, r.path, {
            method: r.method,
            headers: r.headers,
            raw: r.method === 'GET' || r.method === 'HEAD' ? undefined : r.raw,
          }),
        ),
      );
      slice.forEach((r, j) => {
        answers.push([r, got[j]!]);
      });
    }
    for (const [r, a] of answers) {
      const key = a.status <= 0 ? (a.status === -1 ? 'hang' : 'socket error') : String(a.status);
      byStatus[key] = (byStatus[key] ?? 0) + 1;
      if (a.status === 401) unauthorized[r.route] = (unauthorized[r.route] ?? 0) + 1;
      if (a.status === 0 && process.env.SVC_FUZZ_DEBUG)
        out(`  socket error: ${r.method} ${r.path.slice(0, 80)} ${r.raw?.length ?? 0} bytes: ${a.text}`);
      if (a.status >= 500 || a.status === -1)
        violations.push(`${r.method} ${r.path.slice(0, 120)} (${r.route}) → ${key} ${a.text.slice(0, 200)}`);
    }
    if ((await call(url, '/healthz', { timeoutMs: 5_000 })).status !== 200)
      violations.push(`/healthz stopped answering after request ${start + batch.length}`);
    const wrote = answers.some(
      ([r, a]) => a.status < 400 || COUNTS_ATTEMPTS.test(r.path) || (r.path.startsWith('/api/mcp') && a.status === 200),
    );
    if (wrote) await new Promise((r) => setTimeout(r, 100)); // mail and other background writes of an accepted request land first
    const after = await digest();
    if (!wrote && after !== before)
      violations.push(
        `records changed in a batch where every request was refused: ${[...new Set(answers.map(([r]) => r.route))].join(', ')}`,
      );
    before = after;
    if ((await call(url, '/api/me', { headers: bearer(token) })).status === 401) {
      // The session-ending routes come last; past the login throttle the rest simply meet a 401.
      const login = await call(url, '/api/auth/login', {
        body: { email: world.owner.email, password: PROOF_PASSWORD },
      });
      if (login.status === 200) token = login.body.token;
      before = await digest(); // the new session is a record: the next batch starts from here
    }
    if (start % (BATCH * 25) === 0)
      out(`  ${start + batch.length}/${queue.length} requests, ${violations.length} violations`);
  }
  if (process.env.SVC_FUZZ_DEBUG) out(`  401 by route: ${JSON.stringify(unauthorized)}`);
  await daemon.stop();
  rmSync(dataDir, { recursive: true, force: true });
  return { requests: queue.length, routes: routes.length, tools: tools.length, byStatus, violations };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const flags = readFlags('fuzz', () => ({
    requests: option('requests', 'SVC_FUZZ_REQUESTS', 10_000),
    concurrency: option('concurrency', 'SVC_FUZZ_CONCURRENCY', 8),
    // Team mode, on a throwaway database only: the fuzz writes junk into it.
    ...databaseOption(),
  }));
  const report = await runFuzz(flags);
  const counts = Object.entries(report.byStatus)
    .sort()
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  process.stdout.write(
    `\nfuzz: ${report.requests} requests over ${report.routes} routes and ${report.tools} MCP tools in ${((Date.now() - started) / 1000).toFixed(0)} s; by status ${counts}; ${report.violations.length} violations\n`,
  );
  for (const v of report.violations.slice(0, 50)) process.stdout.write(`  VIOLATION ${v}\n`);
  process.exit(report.violations.length ? 1 : 0);
}
