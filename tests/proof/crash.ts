/**
 * `npm run test:crash`: writers drive event appends, quests, signups, logins, key creations and
 * revocations, and calls made with a secret key (REST, MCP tools/call, validate: each leaves an
 * audit entry) against a real daemon while it is killed with SIGKILL at random moments. After each
 * restart, every acknowledged write must be there, every answered key call must have its audit
 * entry, nothing deleted or revoked may come back, and the log must report no repair. A SIGKILL leaves the page cache behind, so first a daemon runs
 * under strace and every write it acknowledged must have been synced before its answer was sent
 * (lib/sync-order.ts; skipped, with one line saying why, where strace cannot run). Prints its
 * figures; exits 1 on a violation.
 *   --cycles N (SVC_CRASH_CYCLES, default 20)   --writers N (SVC_CRASH_WRITERS, default 6)
 *   --sync-seconds S (SVC_CRASH_SYNC_SECONDS, default 10; 0 leaves the order check out)
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { companyOwner, PROOF_PASSWORD } from './lib/accounts.js';
import { bearer, call, operatorHeaders, type Answer } from './lib/client.js';
import { option, readFlags, startProofDaemon, type ProofDaemon } from './lib/daemon.js';
import { runSyncOrder, type SyncOrderReport } from './lib/sync-order.js';

export interface CrashReport {
  cycles: number;
  acknowledged: {
    events: number;
    quests: number;
    signups: number;
    logins: number;
    keys: number;
    revocations: number;
    /** Answered calls made with a secret key, each of which left an audit entry before its answer. */
    keyCalls: number;
  };
  tmpFilesSeen: number;
  /** The order check under strace: how many acknowledged writes it checked, or why it was skipped. */
  syncOrder: SyncOrderReport;
  violations: string[];
}

export async function runCrash(opts: {
  cycles: number;
  writers: number;
  /** Seconds of writes under strace for the order check; 0 leaves it out. */
  syncSeconds: number;
  out?: (line: string) => void;
}): Promise<CrashReport> {
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  const syncOrder = opts.syncSeconds
    ? await runSyncOrder({ seconds: opts.syncSeconds, writers: opts.writers })
    : { checked: 0, skipped: 'not asked for (--sync-seconds 0)', violations: [] };
  out(formatSyncOrder(syncOrder));
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
  let daemon = await startProofDaemon(dataDir);
  const world = await companyOwner(daemon.url, dataDir, 'crash-owner@example.com');
  const ack = {
    events: new Set<string>(),
    quests: new Set<string>(),
    signups: new Set<string>(),
    logins: new Set<string>(),
    keys: new Map<string, string>(),
    revoked: new Map<string, string>(),
    keyCalls: new Map<string, string>(),
  };
  const violations: string[] = syncOrder.violations.slice(0, 20).map((v) => `sync order: ${v}`);
  let tmpFilesSeen = 0;
  let n = 0;

  // One writer: a loop of random writes until `stop`; only answers that arrived count as acknowledged.
  const writer = async (url: string, stop: { now: boolean }) => {
    while (!stop.now) {
      const pick = Math.random();
      const i = n++;
      if (pick < 0.12) {
        // Answered at all (a refusal too) means its audit entry was durable first.
        const [action, a] = await keyCall(url, world, i);
        const requestId = a.headers?.get('x-request-id');
        if (a.status > 0 && requestId) ack.keyCalls.set(requestId, action);
      } else if (pick < 0.55) {
        const a = await call(url, '/api/events/trigger', {
          headers: world.tenant,
          body: { type: 'agent:proof', content: { i } },
          timeoutMs: 10_000,
        });
        if (a.status === 200 || a.status === 201) ack.events.add(a.body.event.id);
      } else if (pick < 0.75) {
        const a = await call(url, '/api/quests', {
          headers: world.tenant,
          body: { title: `q${i}` },
          timeoutMs: 10_000,
        });
        if (a.status === 201) ack.quests.add(a.body.quest.id);
      } else if (pick < 0.85) {
        const a = await call(url, '/api/keys', {
          headers: world.owner.auth,
          body: { root: world.company.id, name: `k${i}` },
          timeoutMs: 10_000,
        });
        if (a.status === 201) ack.keys.set(a.body.id, a.body.secret_key);
      } else if (pick < 0.93 && ack.keys.size > 0) {
        const [id, key] = [...ack.keys][Math.floor(Math.random() * ack.keys.size)]!;
        const a = await call(url, `/api/keys/${id}`, {
          method: 'DELETE',
          headers: world.owner.auth,
          timeoutMs: 10_000,
        });
        ack.keys.delete(id);
        // A revocation cut short by the kill may or may not have reached the disk: that key is checked no more.
        if (a.status === 200) ack.revoked.set(id, key);
      } else if (pick < 0.97) {
        const email = `crash-${i}@example.com`;
        const invite = await call(url, '/api/dev/invites', {
          method: 'POST',
          headers: operatorHeaders(dataDir),
          timeoutMs: 10_000,
        });
        if (invite.status !== 201) continue;
        const a = await call(url, '/api/auth/signup', {
          body: { email, password: PROOF_PASSWORD, invite_code: invite.body.code },
          timeoutMs: 20_000,
        });
        if (a.status === 200) ack.signups.add(email);
      } else {
        const a = await call(url, '/api/auth/login', {
          body: { email: world.owner.email, password: PROOF_PASSWORD },
          timeoutMs: 20_000,
        });
        if (a.status === 200) ack.logins.add(a.body.token);
      }
      if (daemon.url !== url) return;
    }
  };

  for (let cycle = 1; cycle <= opts.cycles; cycle++) {
    const stop = { now: false };
    const writers = Array.from({ length: opts.writers }, () => writer(daemon.url, stop));
    await new Promise((r) => setTimeout(r, 1000 + Math.random() * 3000));
    await daemon.kill(); // SIGKILL mid-write: whatever was in flight is not acknowledged
    stop.now = true;
    await Promise.all(writers);
    tmpFilesSeen += countTmp(dataDir);
    daemon = await startProofDaemon(dataDir);
    violations.push(...(await checkEverything(daemon, dataDir, world, ack)).map((v) => `cycle ${cycle}: ${v}`));
    if (/recovery|repair|truncat/i.test(daemon.log()))
      violations.push(
        `cycle ${cycle}: the log reports a repair: ${daemon
          .log()
          .split('\n')
          .find((l) => /recovery|repair|truncat/i.test(l))}`,
      );
    out(
      `cycle ${cycle}/${opts.cycles}: ${ack.events.size} events, ${ack.quests.size} quests, ${ack.keys.size} live keys, ${ack.revoked.size} revoked, ${ack.signups.size} signups, ${ack.logins.size} logins, ${ack.keyCalls.size} audited key calls acknowledged; ${violations.length} violations`,
    );
    if (violations.length > 20) break;
  }
  await daemon.stop();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    cycles: opts.cycles,
    acknowledged: {
      events: ack.events.size,
      quests: ack.quests.size,
      signups: ack.signups.size,
      logins: ack.logins.size,
      keys: ack.keys.size + ack.revoked.size,
      revocations: ack.revoked.size,
      keyCalls: ack.keyCalls.size,
    },
    tmpFilesSeen,
    syncOrder,
    violations,
  };
}

export function formatSyncOrder(r: SyncOrderReport): string {
  if (r.skipped) return `sync order: skipped: ${r.skipped}`;
  // One line per write found out of order, so the rest were in order.
  return `sync order: ${r.checked} acknowledged writes traced: ${r.checked - r.violations.length} synced to disk between their write and their answer, ${r.violations.length} not`;
}

type World = Awaited<ReturnType<typeof companyOwner>>;
type Ledger = {
  events: Set<string>;
  quests: Set<string>;
  signups: Set<string>;
  logins: Set<string>;
  keys: Map<string, string>;
  revoked: Map<string, string>;
  /** request id → the audit action its entry has */
  keyCalls: Map<string, string>;
};

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/** One call made with the Company's secret key, of the three kinds the trail records per call. */
async function keyCall(url: string, world: World, i: number): Promise<[string, Answer]> {
  const key = bearer(world.sk);
  const pick = i % 3;
  if (pick === 0)
    return ['key.validate', await call(url, '/api/mcp/validate', { method: 'POST', headers: key, timeoutMs: 10_000 })];
  if (pick === 1) return ['rest.call', await call(url, '/api/quests?status=open', { headers: key, timeoutMs: 10_000 })];
  const body = {
    jsonrpc: '2.0',
    id: i,
    method: 'tools/call',
    params: { name: 'events', arguments: { action: 'list' } },
  };
  return [
    'mcp.tools_call',
    await call(url, '/api/mcp', { headers: { ...key, ...MCP_HEADERS }, body, timeoutMs: 10_000 }),
  ];
}

async function checkEverything(daemon: ProofDaemon, dataDir: string, world: World, ack: Ledger): Promise<string[]> {
  const problems: string[] = [];
  const url = daemon.url;
  const seen = new Set<string>();
  for (let cursor = ''; ; ) {
    const page = await call(
      url,
      `/api/events?event_type=agent:proof&limit=1000${cursor ? `&since_id=${cursor}` : ''}`,
      { headers: world.tenant },
    );
    if (page.status !== 200) return [`GET /api/events → ${page.status}`];
    for (const e of page.body.events) seen.add(e.id);
    if (page.body.events.length < 1000) break;
    cursor = page.body.next_since_id;
  }
  const lostEvents = [...ack.events].filter((id) => !seen.has(id));
  if (lostEvents.length)
    problems.push(`${lostEvents.length} acknowledged events lost (${lostEvents.slice(0, 3).join(', ')})`);
  const quests = new Set(
    ((await call(url, '/api/quests', { headers: world.tenant })).body?.quests ?? []).map((q: { id: string }) => q.id),
  );
  const lostQuests = [...ack.quests].filter((id) => !quests.has(id));
  if (lostQuests.length) problems.push(`${lostQuests.length} acknowledged quests lost`);
  const listed = new Set(
    ((await call(url, '/api/keys', { headers: world.owner.auth })).body?.keys ?? []).map((k: { id: string }) => k.id),
  );
  for (const [id] of ack.keys) if (!listed.has(id)) problems.push(`key ${id} lost`);
  for (const [id, key] of ack.revoked) {
    if (listed.has(id)) problems.push(`revoked key ${id} came back in the list`);
    if ((await call(url, '/api/mcp/validate', { method: 'POST', headers: bearer(key) })).status !== 401)
      problems.push(`revoked key ${id} works again`);
  }
  const live = [...ack.keys].slice(-5);
  for (const [id, key] of live)
    if ((await call(url, '/api/mcp/validate', { method: 'POST', headers: bearer(key) })).status !== 200)
      problems.push(`key ${id} no longer works`);
  const op = operatorHeaders(dataDir);
  for (const email of [...ack.signups].slice(-5)) {
    if ((await call(url, '/api/dev/tier', { headers: op, body: { email, tier: 'trial' } })).status !== 200)
      problems.push(`signup ${email} lost`);
  }
  for (const token of [...ack.logins].slice(-5))
    if ((await call(url, '/api/me', { headers: bearer(token) })).status !== 200)
      problems.push('an acknowledged login session was lost');
  problems.push(...(await checkAudit(url, op, ack)));
  return problems;
}

/**
 * The audit trail: every entry is written before its answer (docs/audit.md), so an acknowledged key
 * creation or revocation, and every answered call made with a key, must have its entry after the
 * kill; and every chain holds.
 */
async function checkAudit(url: string, op: Record<string, string>, ack: Ledger): Promise<string[]> {
  const problems: string[] = [];
  const verified = await call(url, '/api/dev/audit/verify', { headers: op, timeoutMs: 60_000 });
  if (verified.status !== 200 || !verified.body.ok)
    problems.push(`the audit chain does not hold: ${verified.status} ${JSON.stringify(verified.body?.broken)}`);
  const targets = async (action: string) => {
    const res = await call(url, `/api/dev/audit?action=${action}&format=jsonl`, { headers: op, timeoutMs: 60_000 });
    return new Set(
      res.text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).target as string),
    );
  };
  const created = await targets('key.create');
  const lostCreations = [...ack.keys.keys(), ...ack.revoked.keys()].filter((id) => !created.has(id));
  if (lostCreations.length) problems.push(`${lostCreations.length} acknowledged key creations have no audit entry`);
  const revoked = await targets('key.revoke');
  const lostRevocations = [...ack.revoked.keys()].filter((id) => !revoked.has(id));
  if (lostRevocations.length) problems.push(`${lostRevocations.length} acknowledged revocations have no audit entry`);
  // By request id: a refused tools/call (a rate limit, say) may be filed as the request's refusal.
  const recorded = new Map<string, string>();
  for (const family of ['key.validate', 'rest', 'mcp']) {
    const res = await call(url, `/api/dev/audit?action=${family}&format=jsonl`, { headers: op, timeoutMs: 60_000 });
    for (const line of res.text.split('\n').filter(Boolean)) {
      const e = JSON.parse(line) as { request_id: string | null; action: string };
      if (e.request_id) recorded.set(e.request_id, e.action);
    }
  }
  const lostCalls = [...ack.keyCalls].filter(([id]) => !recorded.has(id));
  if (lostCalls.length)
    problems.push(
      `${lostCalls.length} answered key calls have no audit entry (${lostCalls
        .slice(0, 3)
        .map(([id, action]) => `${action} ${id}`)
        .join(', ')})`,
    );
  return problems;
}

function countTmp(dir: string): number {
  let count = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile() && e.name.endsWith('.tmp')) count++;
  return count;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  const flags = readFlags('crash', () => ({
    cycles: option('cycles', 'SVC_CRASH_CYCLES', 20),
    writers: option('writers', 'SVC_CRASH_WRITERS', 6),
    syncSeconds: option('sync-seconds', 'SVC_CRASH_SYNC_SECONDS', 10),
  }));
  const report = await runCrash(flags);
  const a = report.acknowledged;
  process.stdout.write(
    `\ncrash: ${report.cycles} SIGKILL cycles in ${((Date.now() - started) / 1000).toFixed(0)} s; acknowledged ${a.events} event appends, ` +
      `${a.quests + a.signups + a.logins + a.keys + a.revocations} other writes (${a.quests} quests, ${a.signups} signups, ${a.logins} logins, ${a.keys} key creations, ${a.revocations} revocations), ${a.keyCalls} audited key calls; ` +
      `${report.tmpFilesSeen} temp files left by kills (removed at each start); ${report.violations.length} violations\n`,
  );
  for (const v of report.violations) process.stdout.write(`  VIOLATION ${v}\n`);
  process.exit(report.violations.length ? 1 : 0);
}
