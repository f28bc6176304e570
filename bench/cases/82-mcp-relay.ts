import type { BenchCase } from '../harness.js';
import { directLatency, LATENCY_CALLS, MCP_HEADERS, relayLatency } from '../mcp-calls.js';
import { createWalletSecretKey } from '../wallet-key.js';

/**
 * What `svc mcp` adds per call: the same sequential `tools/call events list` straight to /api/mcp
 * and through the stdio relay, on a Company of its own. A case apart, so a relay failure costs
 * only its own rows.
 */
const relay: BenchCase = {
  name: 'MCP through the svc mcp relay',
  async run(env) {
    const secretKey = await createWalletSecretKey(env, 'bench-mcp-relay');
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${secretKey}` };
    const direct = await directLatency(env.daemon.url, headers);
    const relayed = await relayLatency(env.daemon.url, secretKey);
    return [
      { name: `one call, direct HTTP (mean of ${LATENCY_CALLS})`, value: direct, unit: 'ms' },
      { name: `one call through svc mcp (mean of ${LATENCY_CALLS})`, value: relayed, unit: 'ms' },
      { name: 'latency the relay adds per call', value: Math.max(0, relayed - direct), unit: 'ms' },
    ];
  },
};
export default relay;
