import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BenchCase } from '../harness.js';
import { createWalletSecretKey } from '../wallet-key.js';

const LIST_CALL = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'events', arguments: { action: 'list', limit: 20 } },
};
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const LATENCY_CALLS = 300;

/**
 * /api/mcp `tools/call events list` under load vs bare Koa, and what the stdio relay adds per call.
 * Set-up goes through public routes only (operator invite, wallet signup, Company, key: see
 * bench/wallet-key.ts), so it needs no e-mail signup. The target applies to the call on a new
 * Company (a short answer, as the bare-Koa baseline's); the same call is measured again once 20
 * events are logged (a ~10 KB answer: the page twice, as structuredContent and as its text block).
 */
const mcp: BenchCase = {
  name: 'MCP /api/mcp and the svc mcp relay',
  async run(env) {
    const secretKey = await createWalletSecretKey(env, 'bench-mcp');
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${secretKey}` };
    await probe(env.call('POST', '/api/mcp', LIST_CALL, headers));
    // A second of warm-up, so the JIT's first compilations are not in the measured window.
    await env.measure(env.daemon.url + '/api/mcp', { method: 'POST', headers, body: LIST_CALL, duration: 1 });
    const {
      value: empty,
      baseline,
      cpuRatio,
    } = await env.compare(env.daemon.url + '/api/mcp', { method: 'POST', headers, body: LIST_CALL });
    // The same question over REST with the same key, to tell MCP's cost from the daemon's.
    const companyId = (await env.call('POST', '/api/mcp/validate', undefined, headers)).body.company.id;
    const rest = await env.measure(env.daemon.url + '/api/events?limit=20', {
      headers: { authorization: headers.authorization, 'x-company': companyId },
    });
    for (let i = 0; i < 20; i++) {
      const trigger = {
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'events', arguments: { action: 'trigger', type: 'session:stopped', content: { i } } },
      };
      const res = await env.call('POST', '/api/mcp', trigger, headers);
      if (res.status !== 200 || res.body?.result?.isError)
        throw new Error(`set-up trigger failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
    await probe(env.call('POST', '/api/mcp', LIST_CALL, headers));
    const page = await env.measure(env.daemon.url + '/api/mcp', { method: 'POST', headers, body: LIST_CALL });

    const direct = await directLatency(env.daemon.url, headers);
    const relayed = await relayLatency(env.daemon.url, secretKey);
    return [
      {
        name: 'POST /api/mcp tools/call events list (new Company)',
        value: empty,
        unit: 'req/s',
        baseline,
        cpuRatio,
        target: '>= 0.4',
      },
      { name: 'REST GET /api/events, same key (new Company)', value: rest, unit: 'req/s', baseline },
      { name: 'the same tools/call, a 20-event page', value: page, unit: 'req/s', baseline },
      { name: `one call, direct HTTP (mean of ${LATENCY_CALLS})`, value: direct, unit: 'ms' },
      { name: `one call through svc mcp (mean of ${LATENCY_CALLS})`, value: relayed, unit: 'ms' },
      { name: 'latency the relay adds per call', value: Math.max(0, relayed - direct), unit: 'ms' },
    ];
  },
};
export default mcp;

async function probe(res: Promise<{ status: number; body: any }>): Promise<void> {
  const { status, body } = await res;
  if (status !== 200 || body?.error || body?.result?.isError)
    throw new Error(`tools/call events list failed: ${status} ${JSON.stringify(body)}`);
}

async function directLatency(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < LATENCY_CALLS; i++) {
    const res = await fetch(`${url}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ ...LIST_CALL, id: i }),
    });
    await res.text();
  }
  return (performance.now() - started) / LATENCY_CALLS;
}

/** Sequential calls through a running `svc mcp` child: write a line, wait for its answer line. */
async function relayLatency(url: string, secretKey: string): Promise<number> {
  const main = fileURLToPath(new URL('../../cli/main.js', import.meta.url));
  const child = spawn(process.execPath, [main, 'mcp'], {
    env: { ...process.env, SVC_URL: url, SVC_SECRET_KEY: secretKey, SVC_KEYCHAIN: 'off' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const roundTrip = async (message: unknown) => {
    child.stdin!.write(JSON.stringify(message) + '\n');
    const next = await lines.next();
    if (next.done) throw new Error('svc mcp closed its stdout');
    return JSON.parse(next.value);
  };
  try {
    await roundTrip({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
    });
    await roundTrip({ ...LIST_CALL, id: -1 }); // warm-up: the first call opens the runtime
    const started = performance.now();
    for (let i = 0; i < LATENCY_CALLS; i++) {
      const answer = await roundTrip({ ...LIST_CALL, id: i });
      if (answer.error) throw new Error(`relay: ${answer.error.message}`);
    }
    return (performance.now() - started) / LATENCY_CALLS;
  } finally {
    child.stdin!.end();
    await new Promise((r) => child.once('exit', r));
  }
}
