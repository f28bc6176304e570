import { Agent } from 'undici';
import { DEFAULT_HASH_POOL } from '../../../daemon/auth/passwords.js';
import { DEFAULT_AUTH } from '../../../daemon/config.js';
import { DEFAULT_TOOL_CALLS_PER_MINUTE } from '../../../daemon/access/tool-call-limit.js';
import { PROOF_PASSWORD } from './accounts.js';
import { call, type Answer } from './client.js';
import { type Sample, type Schedule, waitForWindow } from './load-phases.js';
import { ThrottleLedger } from './throttle-ledger.js';

/**
 * The load's clients, one loop each until the deadline. The only 429s a client may get are the
 * ones it asks for: a login client past the per-address login throttle (or, with more clients than
 * the hashing queue holds, a full queue), an MCP client past its key's tool calls per minute
 * (which it keeps under, so it asks for none). Every other 429, on any route, is a violation. A throttled login client moves to a fresh loopback address, so the hashing
 * threads stay as busy as the phase asks.
 */
export const ROUTES = {
  login: 'POST /api/auth/login',
  mcp: 'POST /api/mcp tools/call',
  append: 'POST /api/events/trigger',
  me: 'GET /api/me',
} as const;

export interface LoadWorld {
  owner: { email: string; auth: Record<string, string> };
  tenant: Record<string, string>;
}

export interface ClientRun {
  deadline: number;
  schedule: Schedule;
  record(sample: Sample, a: Answer, ok: number[], deserved429: boolean): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const retryAfterMs = (a: Answer) => 1000 * Number(a.headers?.get('retry-after') ?? 1);
const [loginLimit] = DEFAULT_AUTH.loginPerAddress;
export const HASH_THREADS = DEFAULT_HASH_POOL.threads;
const HASH_QUEUE = DEFAULT_HASH_POOL.threads + DEFAULT_HASH_POOL.queue;
let loginsInFlight = 0;

/** Client `i`'s logins come from 127.0.(1+i).1, then .2, … each time the throttle bites. */
export async function loginClient(run: ClientRun, url: string, world: LoadWorld, i: number): Promise<void> {
  let address = 1;
  let agent = new Agent({ localAddress: `127.0.${1 + i}.${address}` });
  let ledger = new ThrottleLedger(loginLimit!.limit, loginLimit!.windowMs);
  for (;;) {
    const wait = waitForWindow(run.schedule, performance.now(), true);
    if (wait === null || performance.now() + wait >= run.deadline) break;
    if (wait > 0) await sleep(wait);
    const sent = performance.now();
    const crowded = ++loginsInFlight > HASH_QUEUE;
    const a = await call(url, '/api/auth/login', {
      body: { email: world.owner.email, password: PROOF_PASSWORD },
      dispatcher: agent,
      // A login may wait for several hashes on a loaded machine: the p99 bound judges that, not a timeout.
      timeoutMs: 60_000,
    });
    loginsInFlight--;
    const deserved = a.status === 429 && (ledger.deserves429(sent) || crowded);
    run.record({ route: ROUTES.login, status: a.status, from: sent, to: performance.now() }, a, [200], deserved);
    if (a.status !== 429 || crowded) ledger.count(performance.now());
    if (a.status === 429 && deserved && !crowded) {
      await agent.close();
      agent = new Agent({ localAddress: `127.0.${1 + i}.${++address}` });
      ledger = new ThrottleLedger(loginLimit!.limit, loginLimit!.windowMs);
    } else if (a.status === 429) await sleep(Math.min(retryAfterMs(a), run.deadline - performance.now()));
  }
  await agent.close();
}

/**
 * An MCP client with a key of its own, keeping to the key's tool calls per minute as an agent
 * should: one that called as fast as it was answered would spend its minute in the first window and
 * sleep through the others, and the phases would differ by more than the logins.
 */
export async function mcpClient(run: ClientRun, url: string, key: string, tool: 'whoami' | 'quests'): Promise<void> {
  const perMinute = Number(process.env.SVC_MCP_TOOL_CALLS_PER_MINUTE ?? DEFAULT_TOOL_CALLS_PER_MINUTE);
  const ledger = new ThrottleLedger(perMinute, 60_000);
  const spacing = perMinute > 0 ? (60_000 / perMinute) * 1.05 : 0;
  const headers = { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream' };
  for (let n = 1; performance.now() < run.deadline; n++) {
    const params = { name: tool, arguments: tool === 'whoami' ? {} : { action: 'list' } };
    const sent = performance.now();
    const a = await call(url, '/api/mcp', { headers, body: { jsonrpc: '2.0', id: n, method: 'tools/call', params } });
    const deserved = a.status === 429 && ledger.deserves429(sent);
    run.record({ route: ROUTES.mcp, status: a.status, from: sent, to: performance.now() }, a, [200], deserved);
    if (a.status !== 429) ledger.count(performance.now());
    const wait = a.status === 429 ? retryAfterMs(a) : sent + spacing - performance.now();
    await sleep(Math.min(wait, run.deadline - performance.now()));
  }
}

/** Appends events; `acked` gets the id of every append the daemon acknowledged. */
export async function appendClient(run: ClientRun, url: string, world: LoadWorld, i: number, acked: Set<string>) {
  for (let n = 1; performance.now() < run.deadline; n++) {
    const sent = performance.now();
    const a = await call(url, '/api/events/trigger', {
      headers: world.tenant,
      body: { type: 'agent:load', content: { client: i, n } },
    });
    run.record({ route: ROUTES.append, status: a.status, from: sent, to: performance.now() }, a, [200], false);
    if (a.status === 200) acked.add(a.body.event.id);
  }
}

export async function profileClient(run: ClientRun, url: string, world: LoadWorld): Promise<void> {
  while (performance.now() < run.deadline) {
    const sent = performance.now();
    const a = await call(url, '/api/me', { headers: world.owner.auth });
    run.record({ route: ROUTES.me, status: a.status, from: sent, to: performance.now() }, a, [200], false);
  }
}
