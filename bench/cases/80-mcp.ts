import { hashSecretKey } from '../floor.js';
import { floorRow, type BenchCase } from '../harness.js';
import { directLatency, LATENCY_CALLS, LIST_CALL, MCP_HEADERS } from '../mcp-calls.js';
import { createWalletSecretKey } from '../wallet-key.js';

/**
 * /api/mcp `tools/call events list` under load (the relay's cost is 82-mcp-relay.ts). Set-up goes
 * through public routes only (operator invite, wallet signup, Company, key: see
 * bench/wallet-key.ts), so it needs no e-mail signup. The target applies to the call on a new
 * Company: the cpu ratio to the floor app (parse the JSON-RPC body, the key check, one lookup, the
 * same answer) >= 0.75; the ratio to bare Koa is printed too. The same call is measured again once
 * 20 events are logged (a ~10 KB answer: the page twice, as structuredContent and as its text block).
 */
const mcp: BenchCase = {
  name: 'MCP /api/mcp',
  async run(env) {
    const secretKey = await createWalletSecretKey(env, 'bench-mcp');
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${secretKey}` };
    await probe(env.call('POST', '/api/mcp', LIST_CALL, headers));
    const request = { method: 'POST' as const, headers, body: LIST_CALL };
    const eventsList = await env.floor.capture('/api/mcp', request);
    await env.floor.mirror('/api/mcp', request, { keys: { [hashSecretKey(secretKey)]: { eventsList } } });
    const { bareKoa, floor } = await env.compareWithFloor('/api/mcp', request);
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
      { name: 'POST /api/mcp tools/call events list (new Company)', unit: 'req/s', ...bareKoa },
      floorRow(floor, '>= 0.75'),
      { name: 'REST GET /api/events, same key (new Company)', value: rest, unit: 'req/s', baseline: bareKoa.baseline },
      { name: 'the same tools/call, a 20-event page', value: page, unit: 'req/s', baseline: bareKoa.baseline },
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
