import Koa from 'koa';
import { inject, type InjectOptions } from 'light-my-request';
import type { RequestOptions } from './test-app.js';
import { createIdGenerator } from '../../daemon/ids.js';
import { silentLogger } from '../../daemon/logger.js';
import { cryptoRandom } from '../../daemon/random.js';
import { defaultConfig } from '../../daemon/config.js';
import { parseJsonBody } from '../../daemon/http/body.js';
import { errorRenderer } from '../../daemon/http/error-renderer.js';
import { ApiError } from '../../daemon/http/api-error.js';
import { answerWrongMethod } from '../../daemon/http/route-dispatch.js';
import { Router } from '@koa/router';
import { companyRoutes, enterCompany, type CompanyRef } from '../../daemon/company/index.js';
import { createRuntimeHost, type RuntimeHostOptions } from '../../daemon/company/host.js';
import type { OpenedRuntime } from '../../daemon/company/open-company.js';
import { FakeClock } from './fake-clock.js';
import { tempDir } from './temp-dir.js';
import type { TestResponse } from './test-app.js';

export interface RuntimeTestApp {
  app: Koa;
  clock: FakeClock;
  company: CompanyRef;
  runtime: OpenedRuntime;
  services: OpenedRuntime['services'];
  request(options: RequestOptions): Promise<TestResponse>;
  get(url: string): Promise<TestResponse>;
  post(url: string, body?: unknown): Promise<TestResponse>;
  patch(url: string, body?: unknown): Promise<TestResponse>;
  del(url: string): Promise<TestResponse>;
  /** The data folder (storage 'file': open another app on it to play a restart). */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * One Company's runtime behind a tiny Koa app standing in for the daemon: its error renderer and
 * JSON body parser, then the Company's routes with a fixed tenant.
 */
export async function createRuntimeTestApp(
  options: {
    clock?: FakeClock;
    storage?: 'memory' | 'file';
    runtime?: RuntimeHostOptions['runtime'];
    dataDir?: string;
  } = {},
): Promise<RuntimeTestApp> {
  const clock = options.clock ?? new FakeClock();
  const config = defaultConfig({ dataDir: options.dataDir ?? tempDir('svc-runtime') });
  const ids = createIdGenerator(clock, cryptoRandom);
  const host = createRuntimeHost({
    config,
    clock,
    ids,
    log: silentLogger,
    storage: options.storage ?? 'memory',
    runtime: options.runtime,
  });
  const company: CompanyRef = { id: 'cmp_test', name: 'acme', owner_id: 'usr_test' };
  const runtime = (await host.open(company)) as OpenedRuntime;

  const app = new Koa();
  app.silent = true;
  app.use(errorRenderer(silentLogger));
  app.use(parseJsonBody({ limitFor: () => config.limits.bodyBytes }));
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body == null)
      throw new ApiError(404, 'route_not_found', `No route for ${ctx.method} ${ctx.path}.`);
  });
  // The one non-tenant route the CLI needs to resolve --company, standing in for the gateway's.
  app.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/api/companies')
      ctx.body = { companies: [{ id: company.id, name: company.name }] };
    else await next();
  });
  // The Company's own routes, behind a fixed tenant instead of the daemon's selection.
  const router = new Router();
  router.use((ctx, next) => {
    enterCompany(ctx, { user: { id: company.owner_id } as never, company, via: 'session' }, runtime);
    return next();
  });
  companyRoutes(router);
  const allowed = router.allowedMethods() as unknown as Koa.Middleware;
  app.use((ctx, next) => answerWrongMethod(ctx, next, allowed));
  app.use(router.routes());
  const handler = app.callback();

  const request = async (opts: RequestOptions): Promise<TestResponse> => {
    const res = await inject(handler, opts as InjectOptions);
    let body: unknown;
    try {
      body = res.payload ? JSON.parse(res.payload) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body, text: res.payload };
  };
  const withBody = (method: 'POST' | 'PATCH') => (url: string, body?: unknown) =>
    request({
      method,
      url,
      headers: { 'content-type': 'application/json' },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    app,
    clock,
    company,
    runtime,
    services: runtime.services,
    request,
    get: (url) => request({ method: 'GET', url }),
    post: withBody('POST'),
    patch: withBody('PATCH'),
    del: (url) => request({ method: 'DELETE', url }),
    dataDir: config.dataDir,
    close: () => host.close(),
  };
}
