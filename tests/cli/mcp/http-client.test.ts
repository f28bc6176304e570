import { createServer, type IncomingHttpHeaders } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { McpHttpClient } from '../../../cli/mcp/http-client.js';
import { sseData } from '../../../cli/mcp/sse.js';

const test = suite('relay HTTP client: SSE answers and carried headers');

test('sseData: one payload per event, multi-line data joined, comments and ids skipped', () => {
  const text = ': keep-alive\n\nid: 1\nevent: message\ndata: {"a":1}\n\ndata: {"b":\ndata: 2}\r\n\r\n';
  assert.equal(sseData(text), ['{"a":1}', '{"b":\n2}']);
});

test('reads SSE answers, carries Mcp-Session-Id and the negotiated MCP-Protocol-Version', async () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const msg = JSON.parse(body);
      if (!('id' in msg)) return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'sess-42' });
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } })}\n\n`);
      res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: msg.method === 'initialize' ? { protocolVersion: '2025-06-18' } : {} })}\n\n`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  try {
    const client = new McpHttpClient(`http://127.0.0.1:${port}`, { secretKey: 'sk_x', accountKey: 'ak_y' });
    const init = await client.post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    assert.ok(init.ok);
    assert.is(init.ok && init.messages.length, 2);
    const note = await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(note, { ok: true, messages: [] });
    await client.post({ jsonrpc: '2.0', id: 2, method: 'ping' });
    assert.is(seen[0]!.authorization, 'Bearer sk_x');
    assert.is(seen[0]!['x-api-key'], 'ak_y');
    assert.is(seen[0]!['mcp-session-id'], undefined);
    assert.is(seen[2]!['mcp-session-id'], 'sess-42');
    assert.is(seen[2]!['mcp-protocol-version'], '2025-06-18');
    assert.match(String(seen[0]!.accept), /application\/json.*text\/event-stream/);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test.run();
