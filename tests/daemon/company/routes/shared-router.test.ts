import Koa from 'koa';
import { inject } from 'light-my-request';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { routesOf } from '../../../../daemon/company/routes/shared-router.js';

/**
 * Company runtimes share one compiled router (shared-router.ts): each request must still reach the
 * handlers of its own runtime, with its path parameters, and a 405 must still name the methods.
 */
const runtime = (name: string) =>
  routesOf((router) => {
    router.get('/api/things/:id', async (ctx) => void (ctx.body = { runtime: name, id: ctx.params.id }));
    router.post(
      '/api/things',
      async (ctx, next) => {
        ctx.state.seen = `${name} first`;
        await next();
      },
      async (ctx) => void (ctx.body = { runtime: name, seen: ctx.state.seen }),
    );
  });

const serve = (pick: (path: string) => ReturnType<typeof runtime>) => {
  const app = new Koa();
  app.use(async (ctx, next) => {
    const r = pick(ctx.path + ctx.querystring);
    await r.allowed(ctx, () => r.routes(ctx, next));
  });
  return app.callback();
};

test('two runtimes of one shape share the compiled router; each request reaches its own handlers', async () => {
  const [a, b] = [runtime('a'), runtime('b')];
  assert.is(a.router, b.router, 'compiled once');
  const handler = serve((p) => (p.includes('which=b') ? b : a));
  const get = async (url: string) => JSON.parse((await inject(handler, { method: 'GET', url })).payload);
  // Interleaved, as concurrent requests for two Companies are.
  const answers = await Promise.all([get('/api/things/1?which=a'), get('/api/things/2?which=b'), get('/api/things/3')]);
  assert.equal(answers, [
    { runtime: 'a', id: '1' },
    { runtime: 'b', id: '2' },
    { runtime: 'a', id: '3' },
  ]);
  const posted = await inject(handler, { method: 'POST', url: '/api/things?which=b' });
  assert.equal(JSON.parse(posted.payload), { runtime: 'b', seen: 'b first' }, 'every handler of a route is its own');
  const wrong = await inject(handler, { method: 'DELETE', url: '/api/things/1' });
  assert.is(wrong.statusCode, 405);
  assert.is(wrong.headers.allow, 'HEAD, GET');
});

test('a runtime whose routes differ gets a router of its own shape', () => {
  const other = routesOf((router) => {
    router.get('/api/other', async (ctx) => void (ctx.body = 'other'));
  });
  assert.is.not(other.router, runtime('c').router);
});

test('the recorder refuses what it could not record right (a named route), rather than routing it wrong', () => {
  const named = () =>
    routesOf((router) => {
      (router.get as (...a: unknown[]) => unknown)('thing', '/api/thing', async () => {});
    });
  assert.throws(named, /runtime route GET thing: give a path and handlers only/);
});

test.run();
