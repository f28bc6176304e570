import { PassThrough } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { runRelay } from '../../../cli/mcp/relay.js';

/**
 * Which answer settles the revision the relay sends on every later POST. An upstream that answers
 * each request at once records what the relay told it; the relay sees only JSON-RPC, so the
 * answers decide.
 */
const test = suite('svc mcp relay: the negotiated revision');

function fakeUpstream(initializeResult: Record<string, unknown>) {
  const versions: unknown[] = [];
  const upstream = {
    sessionId: undefined,
    onmessage: undefined as ((m: JSONRPCMessage) => void) | undefined,
    async start() {},
    async close() {},
    setProtocolVersion(v: unknown) {
      versions.push(v);
    },
    async send(m: JSONRPCMessage) {
      if (!('id' in m) || !('method' in m)) return;
      const result = m.method === 'initialize' ? initializeResult : { echoed: m.method };
      queueMicrotask(() => upstream.onmessage?.({ jsonrpc: '2.0', id: m.id, result } as JSONRPCMessage));
    },
  };
  return { upstream: upstream as unknown as StreamableHTTPClientTransport, versions };
}

async function relayLines(upstream: StreamableHTTPClientTransport, messages: unknown[]) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (c) => (out += c));
  const done = runRelay({ stdin, stdout, log: () => {} }, { url: 'http://upstream.test', upstream, missingKey: '' });
  for (const m of messages) stdin.write(JSON.stringify(m) + '\n');
  stdin.end();
  await done;
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
});
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

test('a later request that reuses the initialize id does not change the revision', async () => {
  const { upstream, versions } = fakeUpstream({ protocolVersion: '2025-11-25', capabilities: {} });
  const out = await relayLines(upstream, [initialize(0), call(0), call(0), call(1)]);
  assert.is(out.length, 4);
  assert.equal(versions, ['2025-11-25']);
});

test('an initialize answer without a string revision sets none (never the text "undefined")', async () => {
  for (const result of [{ capabilities: {} }, { protocolVersion: 20251125 }, { protocolVersion: null }]) {
    const { upstream, versions } = fakeUpstream(result);
    await relayLines(upstream, [initialize(7), call(8)]);
    assert.equal(versions, [], JSON.stringify(result));
  }
});

test.run();
