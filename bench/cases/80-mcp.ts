import type { BenchCase } from '../harness.js';
import { directLatency, LATENCY_CALLS, LIST_CALL, MCP_HEADERS } from '../mcp-calls.js';
import { createWalletSecretKey } from '../wallet-key.js';

/**
 * /api/mcp `tools/call events list` under load vs bare Koa (the relay's cost is 82-mcp-relay.ts).
 * Set-up goes through public routes only (operator invite, wallet signup, Company, key: see
 * bench/wallet-key.ts), so it needs no e-mail signup. The target applies to the call on a new
 * Company (a short answer, as the bare-Koa baseline's); the same call is measured again once 20
 * events are logged (a ~10 KB answer: the page twice, as structuredContent and as its text block).
 */
const mcp: BenchCase = {
  name: 'MCP /api/mcp',
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
    ];
  },
};
export default mcp;

async function probe(res: Promise<{ status: number; body: any }>): Promise<void> {
  const { status, body } = await res;
  if (status !== 200 || body?.error || body?.result?.isError)
    throw new Error(`tools/call events list failed: ${status} ${JSON.stringify(body)}`);
}
