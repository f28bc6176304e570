import { Router } from '@koa/router';
import Koa from 'koa';
import { inject } from 'light-my-request';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../daemon/http/api-error.js';
import { errorRenderer } from '../../../daemon/http/error-renderer.js';
import { dispatchRoutes } from '../../../daemon/http/route-dispatch.js';
import { silentLogger } from '../../../daemon/logger.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Three groups as areas write them: one guarded by an unprefixed router.use, one prefixed, one with a parameter prefix. */
function appWith(order: string[] = []) {
  const guarded = new Router();
  guarded.use(async (ctx, next) => {
    order.push('guard');
    if (ctx.get('x-key') !== 'yes') throw new ApiError(401, 'unauthorized', 'no key');
    await next();
  });
  guarded.get('/api/keys', (ctx) => void (ctx.body = { group: 'keys' }));
  const prefixed = new Router({ prefix: '/api/things' });
  prefixed.get('/', (ctx) => void (ctx.body = { group: 'things' }));
  prefixed.post('/:id', (ctx) => void (ctx.body = { id: ctx.params.id }));
  const param = new Router({ prefix: '/api/companies/:company' });
  param.get('/agents', (ctx) => void (ctx.body = { company: ctx.params.company }));
  const app = new Koa();
  app.use(errorRenderer(silentLogger));
  app.use(dispatchRoutes([guarded, prefixed, param]));
  // What comes after the routes (in the daemon: nothing but the 404): answers only its own paths.
  app.use((ctx) => {
    if (!ctx.path.startsWith('/api/elsewhere')) return;
    order.push('fallthrough');
    ctx.body = { fallthrough: true };
  });
  const handler = app.callback();
  return async (method: string, url: string, headers: Record<string, string> = {}) => {
    const res = await inject(handler, { method: method as 'GET', url, headers });
    return { status: res.statusCode, body: res.payload ? JSON.parse(res.payload) : null, allow: res.headers.allow };
  };
}

test("a group's unprefixed router.use guard guards only that group's routes", async () => {
  const order: string[] = [];
  const call = appWith(order);
  assert.is((await call('GET', '/api/keys')).status, 401);
  assert.equal((await call('GET', '/api/keys', { 'x-key': 'yes' })).body, { group: 'keys' });
  order.length = 0;
  assert.equal((await call('GET', '/api/things')).body, { group: 'things' });
  assert.equal((await call('GET', '/api/companies/acme/agents')).body, { company: 'acme' });
  assert.equal(order, [], 'the keys guard never ran for the other groups');
});

test('prefixes match case-insensitively, as the routers do; parameter prefixes always get their chance', async () => {
  const call = appWith();
  assert.equal((await call('GET', '/API/Things')).body, { group: 'things' });
  assert.equal((await call('POST', '/api/things/42')).body, { id: '42' });
  assert.equal((await call('GET', '/api/companies/x/agents')).body, { company: 'x' });
});

test('a request no group answers goes on to what comes after the routes', async () => {
  const order: string[] = [];
  const call = appWith(order);
  assert.equal((await call('GET', '/api/elsewhere')).body, { fallthrough: true });
  assert.equal(order, ['fallthrough']);
});

test('a wrong method is one 405 with an Allow header that covers the groups that matched the path', async () => {
  const call = appWith();
  const res = await call('DELETE', '/api/things/42');
  assert.is(res.status, 405);
  assert.is(res.allow, 'POST');
  assert.is(res.body.code, 'method_not_allowed');
});

test('two groups with routes on the same path: a 405 lists the methods of both, and each method reaches its own group', async () => {
  const order: string[] = [];
  const reads = new Router();
  reads.use(async (_ctx, next) => {
    order.push('reads-guard');
    await next();
  });
  reads.get('/api/shared/:id', (ctx) => void (ctx.body = { by: 'reads', id: ctx.params.id }));
  const writes = new Router();
  writes.put('/api/shared/:id', (ctx) => void (ctx.body = { by: 'writes', id: ctx.params.id }));
  const app = new Koa();
  app.use(errorRenderer(silentLogger));
  app.use(dispatchRoutes([reads, writes]));
  const call = async (method: string, url: string) => {
    const res = await inject(app.callback(), { method: method as 'GET', url });
    return {
      status: res.statusCode,
      body: res.statusCode === 404 ? null : JSON.parse(res.payload),
      allow: res.headers.allow,
    };
  };
  assert.equal((await call('GET', '/api/shared/1')).body, { by: 'reads', id: '1' });
  assert.equal((await call('PUT', '/api/shared/2')).body, { by: 'writes', id: '2' });
  const wrong = await call('DELETE', '/api/shared/3');
  assert.is(wrong.status, 405);
  assert.equal(String(wrong.allow).split(', ').sort(), ['GET', 'HEAD', 'PUT']);
  assert.is((await call('GET', '/api/other')).status, 404);
  // Asked again (the remembered answer for the path), the same path gives the same answers.
  assert.equal((await call('get', '/API/shared/1/')).body, { by: 'reads', id: '1' });
  assert.is((await call('DELETE', '/api/shared/3')).status, 405);
  assert.equal(
    order,
    ['reads-guard', 'reads-guard'],
    'the reads guard ran only for the two GETs, which reached a reads route',
  );
});

test('paths too long to remember and more distinct paths than the memo holds still route exactly', async () => {
  const call = appWith();
  const long = 'x'.repeat(300);
  assert.equal((await call('POST', `/api/things/${long}`)).body, { id: long });
  for (let i = 0; i < 4200; i += 1) {
    const res = await call('POST', `/api/things/${i}`);
    if (res.body?.id !== String(i)) assert.unreachable(`POST /api/things/${i} answered ${JSON.stringify(res.body)}`);
  }
  assert.equal((await call('GET', '/api/things')).body, { group: 'things' });
});

/**
 * Two groups whose routes both match `/api/items/new` (a fixed route in one, a parameter route in
 * the other), each middleware recording what the routers put on the context. The fixed spelling
 * is served by the start-time table, another spelling of the same path (a trailing slash) by the routers per
 * request: both must see the same context at every step.
 */
function tableWorld() {
  const seen: unknown[] = [];
  const record = (where: string) => async (ctx: any, next: () => Promise<unknown>) => {
    seen.push({
      where,
      matched: (ctx.matched ?? []).map((l: { path: string; methods: string[] }) => `${l.methods.join('|')} ${l.path}`),
      params: { ...ctx.params },
      captures: ctx.captures,
      route: ctx._matchedRoute,
      routerPath: ctx.routerPath,
      routeMatched: ctx.routeMatched,
    });
    await next();
  };
  const fixed = new Router({ prefix: '/api/items' });
  fixed.use(record('fixed-guard'));
  fixed.get('/new', record('fixed-route'), (ctx, next) =>
    ctx.get('x-pass') ? next() : void (ctx.body = { by: 'fixed' }),
  );
  const elsewhere = new Router();
  elsewhere.use(record('unrelated-guard'));
  elsewhere.get('/api/other', (ctx) => void (ctx.body = {}));
  const param = new Router();
  param.use('/api/items/:id', record('param-use'));
  param.get('/api/items/:id', record('param-route'), (ctx) => void (ctx.body = { by: 'param', id: ctx.params.id }));
  param.post('/api/items/:id', (ctx) => void (ctx.body = { posted: ctx.params.id }));
  let matches = 0;
  for (const router of [fixed, elsewhere, param]) {
    const match = router.match.bind(router);
    router.match = (path, method) => {
      matches += 1;
      return match(path, method);
    };
  }
  const app = new Koa();
  app.use(errorRenderer(silentLogger));
  app.use(dispatchRoutes([fixed, elsewhere, param]));
  const handler = app.callback();
  matches = 0; // building the table matched each fixed path once
  const call = async (method: string, url: string, headers: Record<string, string> = {}) => {
    seen.length = 0;
    const res = await inject(handler, { method: method as 'GET', url, headers });
    return {
      status: res.statusCode,
      body: res.payload ? JSON.parse(res.payload) : null,
      allow: res.headers.allow,
      seen: [...seen],
    };
  };
  return { call, matches: () => matches };
}

test('a fixed route path is served from the table, with the context the routers set per request', async () => {
  const world = tableWorld();
  const byTable = await world.call('GET', '/api/items/new');
  assert.is(world.matches(), 0, 'the exact path and method came from the table: no router matched anything');
  const byRouters = await world.call('GET', '/api/items/new/');
  assert.ok(world.matches() > 0, 'another spelling of the path (a trailing slash) goes through the routers');
  assert.equal(byTable.body, { by: 'fixed' });
  assert.equal(byTable, byRouters);

  // Passed on by the fixed route, the request reaches the parameter group: its params and layers come after.
  const passedByTable = await world.call('GET', '/api/items/new', { 'x-pass': '1' });
  const passedByRouters = await world.call('GET', '/api/items/new/', { 'x-pass': '1' });
  assert.equal(passedByTable.body, { by: 'param', id: 'new' });
  assert.equal(passedByTable, passedByRouters);
  assert.equal(
    passedByTable.seen.map((s: any) => s.where),
    ['fixed-guard', 'fixed-route', 'param-use', 'param-route'],
    'the unrelated group never ran',
  );
});

test('on a fixed path, HEAD, a method another group takes, and a wrong method answer as the routers do', async () => {
  const world = tableWorld();
  assert.is((await world.call('HEAD', '/api/items/new')).status, 200);
  assert.equal((await world.call('POST', '/api/items/new')).body, { posted: 'new' });
  const wrong = await world.call('DELETE', '/api/items/new');
  assert.is(wrong.status, 405);
  assert.equal(String(wrong.allow).split(', ').sort(), ['GET', 'HEAD', 'POST']);
  const options = await world.call('OPTIONS', '/api/items/new');
  assert.is(options.status, 200, "OPTIONS is left to the routers' allowedMethods");
  assert.equal(String(options.allow).split(', ').sort(), ['GET', 'HEAD', 'POST']);
});

test("a prefixed group's router.use guard runs for every spelling its routes answer (case included)", async () => {
  const operator = new Router({ prefix: '/api/dev' });
  operator.use(async (ctx, next) => {
    if (ctx.get('x-key') !== 'yes') throw new ApiError(401, 'unauthorized', 'no key');
    await next();
  });
  operator.get('/mail', (ctx) => void (ctx.body = { mail: [] }));
  const app = new Koa();
  app.use(errorRenderer(silentLogger));
  app.use(dispatchRoutes([operator]));
  const call = async (url: string, headers: Record<string, string> = {}) =>
    (await inject(app.callback(), { method: 'GET', url, headers })).statusCode;
  for (const url of ['/api/dev/mail', '/API/DEV/MAIL', '/Api/Dev/mail', '/api/dev/mail/']) {
    assert.is(await call(url), 401, url);
    assert.is(await call(url, { 'x-key': 'yes' }), 200, url);
  }
});

test('the memo and the table read what @koa/router 15 has: a pinned major version, `stack` layers, `match`, not-found handlers', () => {
  // dispatchRoutes decides which groups may match a path with the routers' own layer matchers, which
  // @koa/router does not promise to keep; an upgrade must come through here and be checked again.
  const entry = createRequire(import.meta.url).resolve('@koa/router');
  const manifest = join(dirname(entry), '..', 'package.json');
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  assert.match(
    version,
    /^15\./,
    `@koa/router ${version}: re-check route-dispatch.ts's use of router.stack before upgrading`,
  );
  const router = new Router();
  router.get('/api/things/:id', () => {});
  router.use(() => {});
  const layers = router.stack as unknown as { methods: string[]; match(path: string): boolean }[];
  const route = layers.find((l) => l.methods.length > 0)!;
  assert.ok(route.methods.includes('GET'));
  assert.is(route.match('/api/things/7'), true);
  assert.is(route.match('/api/other'), false);
  assert.is(layers.filter((l) => l.methods.length === 0).length, 1, 'router.use adds a layer with no methods');
  // The table leaves a router with not-found handlers to itself, and finds them in this private map.
  const handlers = (router as unknown as { _events?: { _handlers?: unknown } })._events?._handlers;
  assert.ok(handlers instanceof Map);
  router.on('not-found', (_ctx, next) => next());
  assert.is((handlers.get('not-found') as unknown[]).length, 1);
});

test.run();
