import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../../daemon/http/api-error.js';
import { silentLogger } from '../../../daemon/logger.js';
import { createMcpDispatcher } from '../../../daemon/mcp/server.js';
import { defineTool, READ_ONLY, type ToolContext } from '../../../daemon/mcp/tools/types.js';
import type { KeyAuth } from '../../../daemon/access/key-guard.js';

/** Tools for every kind of tools/call outcome: a result, bad arguments, a refusal, a bug. */
const TOOLS = [
  defineTool({
    name: 'echo',
    title: 'Echo',
    description: 'Returns its arguments and the caller.',
    input: z.strictObject({ text: z.string().max(5), n: z.number().int().optional() }),
    output: z.object({ text: z.string(), company: z.string() }).loose(),
    annotations: READ_ONLY,
    run: async (args, ctx) => ({
      ...args,
      company: ctx.keyAuth.company.id,
      nested: { list: [1, 'two', null], unicode: 'é ✓' },
    }),
  }),
  defineTool({
    name: 'refuse',
    title: 'Refuse',
    description: 'Throws a 4xx.',
    input: z.strictObject({}),
    output: z.object({}),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async () => {
      throw new ApiError(409, 'conflict', 'Already there.');
    },
  }),
  defineTool({
    name: 'crash',
    title: 'Crash',
    description: 'Throws a bug.',
    input: z.strictObject({}),
    output: z.object({}),
    annotations: READ_ONLY,
    run: async () => {
      throw new Error('secret detail');
    },
  }),
];

const context: ToolContext = {
  keyAuth: {
    user: { id: 'usr_1' },
    company: { id: 'cmp_1', name: 'acme', owner_id: 'usr_1' },
    principal: { kind: 'key', user: { id: 'usr_1' }, key: { scopes: null } },
    keyId: 'key_1',
    oauth: null,
    limitId: 'key_1',
    accountKey: false,
  } as unknown as KeyAuth,
  services: () => Promise.reject(new Error('not used')),
  now: () => Date.parse('2026-01-15T12:00:00Z'),
};

const CALLS: JSONRPCRequest[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi', n: 3 } } },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo' } },
  { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'too long', n: 1.5 } } },
  { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'refuse', arguments: {} } },
  { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'crash', arguments: {} } },
  { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'nope', arguments: {} } },
  { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x', txet: 'y' } } },
  {
    jsonrpc: '2.0',
    id: 8,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: 9 } },
  },
];

test('tools/list and tools/call answer exactly as through the SDK Server: results, isError results, unknown tool', async () => {
  const direct = createMcpDispatcher(silentLogger, TOOLS);
  const viaSdk = createMcpDispatcher(silentLogger, TOOLS, { direct: false });
  try {
    for (const call of CALLS) {
      const a = await direct.request(call, context);
      const b = await viaSdk.request(call, context);
      assert.equal(a, b, JSON.stringify(call));
      // Same keys in the same order too, so the bytes on the wire are the same.
      assert.is(JSON.stringify(a), JSON.stringify(b), JSON.stringify(call));
    }
  } finally {
    await direct.close();
    await viaSdk.close();
  }
});

test('the direct path keeps the error texts: unknown tool (-32602), and no bug details in results', async () => {
  const direct = createMcpDispatcher(silentLogger, TOOLS);
  const unknown = (await direct.request(CALLS[6]!, context)) as unknown as { error: { code: number; message: string } };
  assert.is(unknown.error.code, -32602);
  // The plain sentence: SDK clients add "MCP error -32602:" themselves, so a prefixed message would show it twice.
  assert.is(unknown.error.message, "Unknown tool: 'nope'. Available tools: echo, refuse, crash.");
  const crash = (await direct.request(CALLS[5]!, context)) as unknown as {
    result: { isError: boolean; content: { text: string }[] };
  };
  assert.ok(crash.result.isError);
  assert.not.match(crash.result.content[0]!.text, /secret detail/);
  await direct.close();
});

test('a task-augmented tools/call and other methods still go through the SDK', async () => {
  const direct = createMcpDispatcher(silentLogger, TOOLS);
  const viaSdk = createMcpDispatcher(silentLogger, TOOLS, { direct: false });
  const task: JSONRPCRequest = {
    jsonrpc: '2.0',
    id: 10,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'x' }, task: { ttl: 1000 } },
  };
  const ping: JSONRPCRequest = { jsonrpc: '2.0', id: 11, method: 'ping' };
  for (const call of [task, ping])
    assert.equal(await direct.request(call, context), await viaSdk.request(call, context));
  assert.equal(await direct.request(ping, context), { jsonrpc: '2.0', id: 11, result: {} });
  await direct.close();
  await viaSdk.close();
});

test.run();
