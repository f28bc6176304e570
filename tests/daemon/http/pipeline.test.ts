import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryLogger } from '../../../daemon/logger.js';
import { createTestApp } from '../../helpers/test-app.js';

test('GET /healthz answers 200 {ok:true} without credentials', async () => {
  const t = await createTestApp();
  const res = await t.get('/healthz');
  assert.is(res.status, 200);
  assert.equal(res.body, { ok: true });
});

test('an unknown route is a JSON 404 with a code', async () => {
  const t = await createTestApp();
  // Not under /api/: every unknown /api/* path is a Company runtime route behind the tenant gateway.
  const res = await t.get('/nothing-here');
  assert.is(res.status, 404);
  assert.is(res.body.code, 'route_not_found');
  assert.type(res.body.error, 'string');
});

test('a known path with the wrong method is a JSON 405', async () => {
  const t = await createTestApp();
  const res = await t.request({ method: 'DELETE', url: '/healthz' });
  assert.is(res.status, 405);
  assert.is(res.body.code, 'method_not_allowed');
  assert.is(res.headers.allow, 'HEAD, GET');
  assert.match(res.body.error, 'DELETE is not supported on /healthz; it takes HEAD, GET.');
  const dev = await t.request({ method: 'PUT', url: '/api/dev/mail', headers: t.operator });
  assert.is(dev.status, 405);
  assert.is(dev.headers.allow, 'HEAD, GET');
  const unknown = await t.request({ method: 'PROPFIND', url: '/healthz' });
  assert.is(unknown.status, 405);
  assert.is(unknown.body.code, 'method_not_allowed');
  assert.is(unknown.headers.allow, 'HEAD, GET');
});

test('malformed JSON is a 400 that says so', async () => {
  const t = await createTestApp();
  const res = await t.request({
    method: 'POST',
    url: '/api/dev/invites',
    headers: { 'content-type': 'application/json', ...t.operator },
    payload: '{"a":',
  });
  assert.is(res.status, 400);
  assert.is(res.body.code, 'invalid_json');
});

test('a body that is not JSON is a 415', async () => {
  const t = await createTestApp();
  const res = await t.request({
    method: 'POST',
    url: '/api/dev/invites',
    headers: { 'content-type': 'text/plain', ...t.operator },
    payload: 'hello',
  });
  assert.is(res.status, 415);
  assert.is(res.body.code, 'unsupported_media_type');
});

test('a 2 MiB body is a 413, and auth routes stop at 64 KiB', async () => {
  const t = await createTestApp();
  const big = JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) });
  const res = await t.request({
    method: 'POST',
    url: '/api/anything',
    headers: { 'content-type': 'application/json' },
    payload: big,
  });
  assert.is(res.status, 413);
  assert.is(res.body.code, 'payload_too_large');
  const mid = JSON.stringify({ pad: 'x'.repeat(100 * 1024) });
  assert.is(
    (
      await t.request({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: mid,
      })
    ).status,
    413,
  );
  // 100 KiB is fine outside the auth routes: this one gets past the body parser to the 404 (a non-tenant prefix, so no gateway).
  assert.is(
    (
      await t.request({
        method: 'POST',
        url: '/api/billing/anything',
        headers: { 'content-type': 'application/json' },
        payload: mid,
      })
    ).status,
    404,
  );
});

test('an empty POST body reads as {}', async () => {
  const t = await createTestApp();
  const res = await t.request({ method: 'POST', url: '/api/dev/invites', headers: t.operator });
  assert.is(res.status, 201);
});

test('an unexpected throw is a JSON 500 with no details, logged, and the daemon keeps serving', async () => {
  const log = createMemoryLogger();
  const t = await createTestApp({ log });
  t.deps.stores.outbox.list = async () => {
    throw new Error('disk on fire at /secret/path');
  };
  const res = await t.get('/api/dev/mail', t.operator);
  assert.is(res.status, 500);
  assert.is(res.body.code, 'internal_error');
  assert.not.match(res.text, 'disk on fire');
  assert.not.match(res.text, '/secret/path');
  assert.ok(log.lines.some((l) => l.includes('disk on fire') && l.includes(res.body.request_id)));
  assert.is((await t.get('/healthz')).status, 200);
});

test('every answer carries a request id; a sane client id is echoed', async () => {
  const t = await createTestApp();
  assert.ok((await t.get('/healthz')).headers['x-request-id']);
  assert.is((await t.get('/healthz', { 'x-request-id': 'abc-123' })).headers['x-request-id'], 'abc-123');
  assert.is.not((await t.get('/healthz', { 'x-request-id': 'bad id\u0001' })).headers['x-request-id'], 'bad id\u0001');
});

test.run();
