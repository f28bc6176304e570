import { Router } from '@koa/router';
import type Koa from 'koa';
import { tenant } from '../../daemon/companies/tenant.js';
import type { Deps } from '../../daemon/deps.js';
import { tenantOf, type CompanyRef, type CompanyRuntime, type RuntimeHost } from '../../daemon/company/seam.js';
import type { CompanyServices } from '../../daemon/company/company-services.js';
import type { TestApp, TestResponse } from './test-app.js';
import type { TestUser } from './accounts.js';

/** A Company made through POST /api/companies. */
export async function createCompany(
  t: TestApp,
  owner: TestUser,
  name = `co-${Math.random().toString(36).slice(2, 8)}`,
): Promise<{ id: string; name: string }> {
  const res = await t.post('/api/companies', { name }, owner.auth);
  if (res.status !== 201) throw new Error(`createCompany: ${res.status} ${res.text}`);
  return { id: res.body.id, name: res.body.name };
}

/** A secret key made through POST /api/keys (the owner needs the company or owner tier). */
export async function createSecretKey(
  t: TestApp,
  owner: TestUser,
  root: string,
  name = 'test key',
): Promise<{ id: string; key: string; res: TestResponse }> {
  const res = await t.post('/api/keys', { root, name }, owner.auth);
  if (res.status !== 201) throw new Error(`createSecretKey: ${res.status} ${res.text}`);
  return { id: res.body.id, key: res.body.secret_key, res };
}

export async function rotateAccountKey(t: TestApp, owner: TestUser): Promise<string> {
  const res = await t.post('/api/account/api-key', undefined, owner.auth);
  if (res.status !== 201) throw new Error(`rotateAccountKey: ${res.status} ${res.text}`);
  return res.body.api_key;
}

/** A RuntimeHost whose runtimes serve nothing, and record every Company opened. */
export function echoRuntimes(): RuntimeHost & { opened: CompanyRef[] } {
  const opened: CompanyRef[] = [];
  return {
    opened,
    open: async (company) => {
      opened.push(company);
      const runtime: CompanyRuntime = {
        // Company creation seeds the default schedules; the echo has none to run.
        services: {} as unknown as CompanyServices,
        seedDefaults: async () => {},
      };
      return runtime;
    },
    discard: async () => {},
    close: async () => {},
  };
}

/**
 * `GET`/`POST /api/echo` behind the daemon's own tenant middleware, answering with the tenant it
 * handed over: mount it with createTestApp's `extend`.
 */
export function mountEchoRoute(app: Koa, deps: Deps): void {
  const router = new Router();
  router.use(tenant(deps, { 'GET /api/echo': 'agents:read', 'POST /api/echo': 'agents:write' }));
  const echo: Koa.Middleware = (ctx) => {
    const tenant = tenantOf(ctx);
    ctx.body = {
      company: tenant.company,
      user_id: tenant.user.id,
      via: tenant.via,
      key_id: tenant.keyId ?? null,
      path: ctx.path,
      body: ctx.request.body ?? null,
    };
  };
  router.get('/api/echo', echo);
  router.post('/api/echo', echo);
  app.use(router.routes());
}
