import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectV1Relay, connectV2Relay, type Keys } from '../../helpers/mcp-clients.js';
import { createMcpTestApp } from '../../helpers/mcp-app.js';
import { runEventsScenario, type ScenarioClient } from '../../helpers/mcp-scenario.js';
import { serveTestApp } from '../../helpers/test-app.js';

/**
 * The built `svc mcp` under the official SDK clients' stdio transports, as Claude Desktop or the
 * Inspector run it: v1, and v2 speaking 2025-11-25 (legacy) or 2026-07-28 (pinned) through it.
 */
const test = suite('svc mcp under the SDK stdio client transports');

const CASES: [string, string, (url: string, k: Keys) => Promise<ScenarioClient & { close(): Promise<void> }>][] = [
  ['v1', '2025-11-25', (url, k) => connectV1Relay(url, k)],
  ['v2, legacy', '2025-11-25', (url, k) => connectV2Relay(url, k, 'legacy')],
  ['v2, pinned to 2026-07-28', '2026-07-28', (url, k) => connectV2Relay(url, k, { pin: '2026-07-28' })],
];

for (const [name, version, connect] of CASES) {
  test(`${name}: initialize → tools/list → every events action → the triggered quest, through the relay`, async () => {
    const t = await createMcpTestApp();
    const served = await serveTestApp(t);
    const client = await connect(served.url, { secret: t.keys.secret, account: t.keys.account });
    try {
      const negotiated =
        (client as { getNegotiatedProtocolVersion?(): string }).getNegotiatedProtocolVersion?.() ?? '2025-11-25';
      assert.is(negotiated, version);
      await runEventsScenario(client, t);
      const unknown = await client.callTool({ name: 'missing', arguments: {} }).then(
        () => null,
        (err: Error) => err,
      );
      assert.match(String(unknown?.message), /^(MCP error -32602: )?Unknown tool: 'missing'/);
    } finally {
      await client.close();
      await served.close();
    }
  });
}

test('the built `svc mcp` with a lapsed key: initialize fails with the 402 explanation', async () => {
  const t = await createMcpTestApp();
  const served = await serveTestApp(t);
  try {
    const err = await connectV1Relay(served.url, { secret: t.keys.trial }).then(
      () => null,
      (e: Error) => e,
    );
    assert.match(String(err?.message), /Company subscription.*svc admin tier/);
  } finally {
    await served.close();
  }
});

test.run();
