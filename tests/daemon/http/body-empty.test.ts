import { request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Koa from 'koa';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseJsonBody } from '../../../daemon/http/body.js';
import { errorRenderer } from '../../../daemon/http/error-renderer.js';
import { silentLogger } from '../../../daemon/logger.js';

/** A real socket, so the request framing (Content-Length, chunked) is exactly what a client sends. */
async function withServer(fn: (port: number) => Promise<void>) {
  const app = new Koa();
  app.use(errorRenderer(silentLogger));
  app.use(parseJsonBody({ limitFor: () => 64 }));
  app.use((ctx) => void (ctx.body = { body: ctx.request.body ?? null, raw: ctx.request.rawBody?.length ?? null }));
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    await fn((server.address() as AddressInfo).port);
  } finally {
    await new Promise((r) => server.close(r));
  }
}

function post(port: number, headers: Record<string, string>, chunks: string[]): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

test('a POST with no body (Content-Length 0) reads as {} without waiting for the stream', async () => {
  await withServer(async (port) => {
    assert.equal(await post(port, { 'content-length': '0' }, []), { status: 200, body: { body: {}, raw: 0 } });
  });
});

test('a chunked body (no Content-Length) is still read, parsed and held to the limit', async () => {
  await withServer(async (port) => {
    const json = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    assert.equal(await post(port, json, ['{"a":', '1}']), { status: 200, body: { body: { a: 1 }, raw: 7 } });
    const big = await post(port, json, ['{"a":"', 'x'.repeat(100), '"}']);
    assert.is(big.status, 413);
    assert.is(big.body.code, 'payload_too_large');
  });
});

test('a declared body is read as before', async () => {
  await withServer(async (port) => {
    const res = await post(port, { 'content-type': 'application/json', 'content-length': '8' }, ['{"b":22}']);
    assert.equal(res, { status: 200, body: { body: { b: 22 }, raw: 8 } });
  });
});

test('a declared body cut short by the client fails the read instead of waiting for the rest', async () => {
  const app = new Koa();
  let settled: (outcome: string) => void = () => {};
  const outcome = new Promise<string>((r) => (settled = r));
  app.use(async (_ctx, next) => {
    try {
      await next();
      settled('read');
    } catch (err) {
      settled(`failed: ${(err as { code?: string }).code ?? (err as Error).message}`);
    }
  });
  let arrived: () => void = () => {};
  const headersIn = new Promise<void>((r) => (arrived = r));
  app.use((_ctx, next) => {
    arrived();
    return next();
  });
  app.use(parseJsonBody({ limitFor: () => 1024 }));
  app.use((ctx) => void (ctx.body = {}));
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    await headersIn;
    socket.destroy();
    const result = await Promise.race([outcome, new Promise((r) => setTimeout(() => r('still waiting'), 5000))]);
    assert.match(String(result), /^failed: /);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test.run();
