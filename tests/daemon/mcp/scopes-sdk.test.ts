import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectV1Http, connectV1Relay, connectV2Http } from '../../helpers/mcp-clients.js';
import { createMcpTestApp } from '../../helpers/mcp-app.js';
import { serveTestApp } from '../../helpers/test-app.js';

/**
 * A scoped key through the official SDK clients, over HTTP and through `svc mcp`: tools/list shows
 * only what the key may call, an allowed action runs, and a call outside the scopes is refused with
 * an error that names the scope it needs (the HTTP 403 step-up answer; the relay passes the
 * daemon's JSON-RPC error through as it is).
 */
const test = suite('mcp: a scoped key through the SDK clients');

const CLIENTS = {
  'v1 over HTTP': connectV1Http,
  'v1 through svc mcp': connectV1Relay,
  'v2 over HTTP, 2026-07-28': (url: string, k: { secret: string; account: string }) =>
    connectV2Http(url, k, { pin: '2026-07-28' }),
  'v2 over HTTP, legacy': (url: string, k: { secret: string; account: string }) => connectV2Http(url, k, 'legacy'),
};

for (const [name, connect] of Object.entries(CLIENTS)) {
  test(`${name}: events:read lists and reads events; trigger is refused naming events:trigger`, async () => {
    const t = await createMcpTestApp();
    const made = await t.post(
      '/api/keys',
      { root: t.company.id, name: 'monitor', scopes: ['events:read'] },
      t.owner.auth,
    );
    const served = await serveTestApp(t);
    const client = await connect(served.url, { secret: made.body.secret_key, account: t.keys.account });
    try {
      const { tools } = await client.listTools();
      assert.equal(
        tools.map((x: { name: string }) => x.name),
        ['whoami', 'events', 'events_read'],
      );
      const listed = await client.callTool({ name: 'events', arguments: { action: 'list' } });
      assert.not.ok(listed.isError, JSON.stringify(listed));
      const refused = await client.callTool({ name: 'events', arguments: { action: 'trigger', type: 'x:y' } }).then(
        (r: unknown) => r,
        (err: Error) => err,
      );
      assert.instance(refused, Error, `a refusal, not ${JSON.stringify(refused)}`);
      assert.match((refused as Error).message, 'events:trigger');
      const direct = await client.callTool({ name: 'agents', arguments: { action: 'list' } }).then(
        () => null,
        (err: Error) => err,
      );
      assert.match(String(direct?.message), 'agents:read', 'a tool the list does not show is refused when called');
    } finally {
      await client.close();
      await served.close();
      await t.close();
    }
  });
}

test.run();
