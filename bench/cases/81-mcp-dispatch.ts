import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../daemon/clock.js';
import { defaultConfig } from '../../daemon/config.js';
import type { KeyAuth } from '../../daemon/access/key-guard.js';
import { createIdGenerator } from '../../daemon/ids.js';
import { silentLogger } from '../../daemon/logger.js';
import { createMcpDispatcher } from '../../daemon/mcp/server.js';
import { runTool } from '../../daemon/mcp/tool-runner.js';
import { eventsTool } from '../../daemon/mcp/tools/events.js';
import type { ToolContext } from '../../daemon/mcp/tools/types.js';
import { cryptoRandom } from '../../daemon/random.js';
import { createRuntimeHost } from '../../daemon/company/host.js';
import type { BenchCase, BenchRow } from '../harness.js';

const CALLS = 5000;
const ARGS = { action: 'list', limit: 20 };

/**
 * In-process, no HTTP: what one `tools/call events list` (a 20-event page) costs in each layer of
 * /api/mcp, so the HTTP case's ratio can be read. The runtime is a real one over memory storage
 * with 20 logged events. Layers: the events service; the tool (argument validation, the service,
 * the result's text block); the SDK Server behind our dispatcher (request and result validation,
 * routing, id renumbering). The daemon processes the harness started are not used.
 */
const dispatch: BenchCase = {
  name: 'MCP dispatcher in-process',
  async run() {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-dispatch-'));
    const host = createRuntimeHost({
      config: defaultConfig({ dataDir }),
      clock: systemClock,
      ids: createIdGenerator(systemClock, cryptoRandom),
      log: silentLogger,
      storage: 'memory',
    });
    try {
      const company = { id: 'cmp_bench', name: 'bench', owner_id: 'usr_bench' };
      const services = (await host.open(company)).services;
      for (let i = 0; i < 20; i++) await services.events.emit({ type: 'session:stopped', content: { i } });
      const user = { id: 'usr_bench', email: 'bench@example.com', tier: 'company', created_at: '' };
      const keyAuth = {
        user,
        company,
        principal: { kind: 'key', user, key: { scopes: null } },
        keyId: 'key_bench',
        oauth: null,
        limitId: 'key_bench',
        accountKey: false,
      } as unknown as KeyAuth;
      const ctx: ToolContext = { keyAuth, services: async () => services, now: systemClock.now };
      const dispatcher = createMcpDispatcher(silentLogger);
      const call = (id: number) => ({
        jsonrpc: '2.0' as const,
        id,
        method: 'tools/call',
        params: { name: 'events', arguments: ARGS },
      });

      const service = await perCall(async () => void services.events.list({ limit: 20 }));
      const tool = await perCall(async () => void (await runTool(eventsTool, ARGS, ctx, silentLogger)));
      const ping = await perCall(
        async (i) => void (await dispatcher.request({ jsonrpc: '2.0', id: i, method: 'ping' }, ctx)),
      );
      const full = await perCall(async (i) => void JSON.stringify(await dispatcher.request(call(i), ctx)));
      await dispatcher.close();
      const rows: BenchRow[] = [
        { name: 'events service: list 20 events', value: service, unit: 'µs/call' },
        { name: 'tool: validate args + list + text block', value: tool, unit: 'µs/call' },
        { name: 'dispatcher: ping (SDK round trip floor)', value: ping, unit: 'µs/call' },
        { name: 'dispatcher: tools/call events list, serialised', value: full, unit: 'µs/call' },
        { name: 'dispatcher overhead over the tool', value: Math.max(0, full - tool), unit: 'µs/call' },
      ];
      return rows;
    } finally {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
export default dispatch;

/** Mean microseconds per call over CALLS sequential calls, after a warm-up. */
async function perCall(fn: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < 500; i++) await fn(i);
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await fn(i);
  return ((performance.now() - started) * 1000) / CALLS;
}
