import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { browserOrigins } from '../../../daemon/auth/browser-origins.js';
import { defaultConfig } from '../../../daemon/config.js';
import { consoleRoutes } from '../../../daemon/console/routes.js';
import Koa from 'koa';
import { inject } from 'light-my-request';
import { errorRenderer } from '../../../daemon/http/error-renderer.js';
import { silentLogger } from '../../../daemon/logger.js';
import { createTestApp } from '../../helpers/test-app.js';

test('GET / serves the console page with a strict CSP, no framing, no caching; its bundle is served gzipped and immutable', async () => {
  const t = await createTestApp();
  const page = await t.get('/');
  assert.is(page.status, 200);
  assert.match(String(page.headers['content-type']), /text\/html/);
  const csp = String(page.headers['content-security-policy']);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /style-src 'self'(;|$)/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.not.match(csp, /unsafe-inline|unsafe-eval/);
  assert.is(page.headers['x-frame-options'], 'DENY');
  assert.is(page.headers['cache-control'], 'no-store');
  // No inline script or style in the page itself: only the hashed files.
  assert.not.match(page.text, /<script(?![^>]*\bsrc=)[^>]*>/);
  assert.not.match(page.text, /<style|style=/);
  const js = /src="(\/console\/app-[A-Z0-9]+\.js)"/.exec(page.text)?.[1];
  assert.ok(js, page.text);
  const bundle = await t.request({ method: 'GET', url: js!, headers: { 'accept-encoding': 'gzip' } });
  assert.equal(
    [bundle.status, bundle.headers['content-encoding'], bundle.headers['cache-control']],
    [200, 'gzip', 'public, max-age=31536000, immutable'],
  );
  assert.match(String(bundle.headers['content-type']), /javascript/);
  assert.is((await t.get('/console/nope.js')).body.code, 'not_found');
  assert.is((await t.get('/console/index.html')).status, 404);
});

test('the magic link opens the console page (nothing consumed by the GET); an unbuilt console is a clear 404', async () => {
  const t = await createTestApp();
  const page = await t.get('/auth/magic?token=abc');
  assert.equal([page.status, page.headers['referrer-policy']], [200, 'no-referrer']);
  assert.match(page.text, /<div id="root">/);
  const app = new Koa();
  app.use(errorRenderer(silentLogger));
  app.use(consoleRoutes(() => null).routes());
  const res = await inject(app.callback(), { method: 'GET', url: '/' });
  assert.equal([res.statusCode, JSON.parse(res.payload).code], [404, 'console_not_built']);
});

test('browser origins: an IP daemon gets RP id localhost and http://localhost:<port>; a named one its own origin', () => {
  const local = browserOrigins(defaultConfig({ publicUrl: 'http://127.0.0.1:4321' }));
  assert.equal(local, {
    consoleUrl: 'http://localhost:4321/',
    origins: ['http://127.0.0.1:4321', 'http://localhost:4321'],
    rpId: 'localhost',
    webauthnOrigins: ['http://localhost:4321'],
  });
  const named = browserOrigins(defaultConfig({ publicUrl: 'https://svc.example.com' }));
  assert.equal(named, {
    consoleUrl: 'https://svc.example.com/',
    origins: ['https://svc.example.com'],
    rpId: 'svc.example.com',
    webauthnOrigins: ['https://svc.example.com'],
  });
  assert.equal(browserOrigins(defaultConfig({ publicUrl: 'http://[::1]:7878' })).rpId, 'localhost');
});

test.run();
