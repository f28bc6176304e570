import { createServer } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createApiClient } from '../../cli/api-client.js';
import { ApiRequestError, FailedError } from '../../cli/errors.js';
import { keyListResponse } from '../../shared/schemas/keys.js';

/** A loopback server answering each path with a fixed status and body. */
async function serve(answers: Record<string, [number, unknown]>) {
  const server = createServer((req, res) => {
    const [status, body] = answers[req.url!] ?? [404, { error: 'no route', code: 'not_found' }];
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

test('an answer of the shape the shared schema describes is returned, checked', async () => {
  const s = await serve({ '/api/keys': [200, { keys: [], account_key: null, extra: 1 }] });
  try {
    const list = await createApiClient(s.url).get('/api/keys', { schema: keyListResponse });
    assert.equal(list.keys, []);
  } finally {
    await s.close();
  }
});

test('an answer of the wrong shape is an error naming the field, not a cast that fails later', async () => {
  const s = await serve({ '/api/keys': [200, { keys: [{ id: 1 }], account_key: null }] });
  try {
    await createApiClient(s.url).get('/api/keys', { schema: keyListResponse });
    assert.unreachable();
  } catch (err) {
    assert.instance(err, FailedError);
    assert.match((err as Error).message, /unexpected answer from GET \/api\/keys: keys\.0\.id/);
  }
  await s.close();
});

test('an error answer becomes ApiRequestError with its code; raw() returns it as it came', async () => {
  const s = await serve({ '/api/x': [409, { error: 'taken', code: 'conflict' }] });
  try {
    const api = createApiClient(s.url);
    const err = (await api.get('/api/x').catch((e) => e)) as ApiRequestError;
    assert.instance(err, ApiRequestError);
    assert.is(err.code, 'conflict');
    assert.equal(await api.raw('GET', '/api/x'), { status: 409, body: { error: 'taken', code: 'conflict' } });
  } finally {
    await s.close();
  }
});

test('a daemon that is not there is one sentence with a hint', async () => {
  const err = (await createApiClient('http://127.0.0.1:1')
    .get('/api/me')
    .catch((e) => e)) as FailedError;
  assert.instance(err, FailedError);
  assert.match(err.message, /cannot reach the svc daemon at http:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)/);
});

test.run();
