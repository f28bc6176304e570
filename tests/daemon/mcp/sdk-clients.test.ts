import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectV1Http, connectV2Http, type V2Mode } from '../../helpers/mcp-clients.js';
import { createMcpTestApp } from '../../helpers/mcp-app.js';
import { runEventsScenario, type ScenarioClient } from '../../helpers/mcp-scenario.js';
import { serveTestApp } from '../../helpers/test-app.js';

/**
 * The official SDK clients over Streamable HTTP, each revision they speak, on a real socket: v1
 * (@modelcontextprotocol/sdk) offering 2025-11-25, 2025-06-18 and 2025-03-26 in initialize, and v2
 * (@modelcontextprotocol/client) in its three negotiation modes — legacy (initialize), auto
 * (server/discover first) and pinned to 2026-07-28. Each runs initialize (or discover) → tools/list
 * → every `events` action → the triggered quest, with the SDK validating results against outputSchema.
 */
const test = suite('mcp: the official SDK clients over Streamable HTTP');

type Case = {
  name: string;
  version: string;
  connect: (
    url: string,
    k: { secret: string; account: string },
  ) => Promise<ScenarioClient & { close(): Promise<void> }>;
};
const v2 = (mode: V2Mode) => (url: string, k: { secret: string; account: string }) => connectV2Http(url, k, mode);
const CASES: Case[] = [
  { name: 'v1, 2025-11-25', version: '2025-11-25', connect: (url, k) => connectV1Http(url, k) },
  { name: 'v1, 2025-06-18', version: '2025-06-18', connect: (url, k) => connectV1Http(url, k, '2025-06-18') },
  { name: 'v1, 2025-03-26', version: '2025-03-26', connect: (url, k) => connectV1Http(url, k, '2025-03-26') },
  { name: 'v2, legacy negotiation', version: '2025-11-25', connect: v2('legacy') },
  { name: 'v2, auto negotiation', version: '2026-07-28', connect: v2('auto') },
  { name: 'v2, pinned to 2026-07-28', version: '2026-07-28', connect: v2({ pin: '2026-07-28' }) },
];

for (const c of CASES) {
  test(`${c.name}: initialize → tools/list → every events action → the triggered quest`, async () => {
    // File storage, as the daemon runs: the runtime's documents and the stores on disk.
    const t = await createMcpTestApp({ storage: 'file' });
    const served = await serveTestApp(t);
    const client = await c.connect(served.url, { secret: t.keys.secret, account: t.keys.account });
    try {
      const negotiated =
        (client as { getNegotiatedProtocolVersion?(): string }).getNegotiatedProtocolVersion?.() ??
        ((client as any).transport?.protocolVersion as string);
      assert.is(negotiated, c.version);
      await runEventsScenario(client, t);
      const bad = await client.callTool({ name: 'quests', arguments: { action: 'get' } });
      assert.ok(bad.isError);
      // The server's message is the plain sentence: v1 adds "MCP error -32602: " once, v2 adds nothing.
      const unknown = await client.callTool({ name: 'missing', arguments: {} }).then(
        () => null,
        (err: Error) => err,
      );
      assert.match(String(unknown?.message), /^(MCP error -32602: )?Unknown tool: 'missing'/);
      assert.not.match(String(unknown?.message), /MCP error.*MCP error/);
    } finally {
      await client.close();
      await served.close();
    }
  });
}

test('a lapsed (trial) key: the SDK clients fail to connect with the 402 explanation', async () => {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  try {
    for (const connect of [
      () => connectV1Http(served.url, { secret: t.keys.trial }),
      () => connectV2Http(served.url, { secret: t.keys.trial }, 'auto'),
    ]) {
      const err = await connect().then(
        () => null,
        (e: Error) => e,
      );
      assert.match(String(err?.message), /Company subscription/);
    }
    // Pinned, the v2 client reports only that server/discover did not offer the revision (its own wording).
    assert.ok(
      await connectV2Http(served.url, { secret: t.keys.trial }, { pin: '2026-07-28' }).then(
        () => null,
        (e: Error) => e,
      ),
    );
  } finally {
    await served.close();
  }
});

test.run();
