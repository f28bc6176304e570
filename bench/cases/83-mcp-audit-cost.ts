import { compare } from '../compare.js';
import type { BenchCase } from '../harness.js';
import { LIST_CALL, MCP_HEADERS } from '../mcp-calls.js';
import { createWalletSecretKey } from '../wallet-key.js';

/**
 * What recording costs a tools/call: the same `tools/call events list` on two daemons started from
 * the same entry (bench/audit-variant.ts), one with the audit trail and one without, measured in
 * alternating slices. The target is on the cpu ratio (CPU per request without the trail ÷ with
 * it): an audited call within 10 % of an unaudited one is a ratio of at least 1 / 1.1 ≈ 0.91.
 * The trail's entries are durable before each answer in the audited daemon, as in every daemon.
 */
const auditCost: BenchCase = {
  name: 'MCP tools/call: audited vs unaudited',
  async run(env) {
    const [audited, unaudited] = [await env.startAuditVariant(true), await env.startAuditVariant(false)];
    try {
      const sides = await Promise.all(
        [audited, unaudited].map(async (d) => {
          const secretKey = await createWalletSecretKey(d, 'bench-audit');
          const request = {
            method: 'POST' as const,
            headers: { ...MCP_HEADERS, authorization: `Bearer ${secretKey}` },
            body: LIST_CALL,
          };
          const probe = await d.call('POST', '/api/mcp', LIST_CALL, request.headers);
          if (probe.status !== 200 || probe.body?.error || probe.body?.result?.isError)
            throw new Error(`tools/call events list failed: ${probe.status} ${JSON.stringify(probe.body)}`);
          return { url: `${d.url}/api/mcp`, pid: d.pid, request };
        }),
      );
      const [a, u] = sides as [(typeof sides)[0], (typeof sides)[0]];
      // A second of the call on each first, so neither pays for V8's first compilations in a slice.
      for (const side of [a, u]) await env.measure(side.url, { ...side.request, duration: 1 });
      // Each side with its own key: the request differs only in the key, so each is driven with its own.
      const [pair] = await compare(
        [{ url: u.url, pid: u.pid, request: u.request }],
        { url: a.url, pid: a.pid, request: a.request },
        env,
        { rounds: 5 },
      );
      const entries = await audited.call('GET', '/api/dev/audit?action=mcp.tools_call&limit=1', undefined, {
        authorization: `Bearer ${audited.daemon.operatorToken}`,
      });
      if (!entries.body?.entries?.length) throw new Error('the audited daemon recorded no tools/call');
      return [
        {
          name: 'tools/call events list, audited',
          unit: 'req/s',
          ...pair!,
          baselineName: 'unaudited',
          target: '>= 0.91',
          targetOn: 'cpu ratio',
        },
      ];
    } finally {
      await Promise.all([audited.stop(), unaudited.stop()]);
    }
  },
};
export default auditCost;
