import { Router } from '@koa/router';
import { inject } from 'light-my-request';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import type { CompanyRef, KeyAuth } from '../../daemon/gateway/seam.js';
import { ApiError } from '../../daemon/http/api-error.js';
import { mcpEndpoint } from '../../daemon/mcp/endpoint.js';
import type { UserRecord } from '../../daemon/store/types.js';
import { createFakeRuntimeHost } from './fake-runtime.js';
import { createTestApp, type TestApp, type TestResponse } from './test-app.js';

export const MCP_COMPANY: CompanyRef = { id: 'cmp_test', name: 'acme', owner_id: 'usr_test' };
export const MCP_USER: UserRecord = { id: 'usr_test', email: 'ada@example.com', tier: 'company', created_at: '2026-01-01T00:00:00.000Z' };
/** The keys the stand-in guard knows: a good one, and one whose owner is on the trial tier. */
export const MCP_KEYS = { secret: 'sk_test_good', account: 'ak_test_good', trial: 'sk_test_trial' };

/**
 * Stands in for issue 5's requireKeys until it is merged: the same outcomes (401 without or with an
 * unknown key, 402 for a trial owner, else ctx.state.keyAuth) for the few fixed keys above.
 */
export const fakeKeyGuard: Middleware = async (ctx, next) => {
  const token = /^Bearer (\S+)$/.exec(ctx.get('Authorization'))?.[1];
  if (token === MCP_KEYS.trial) throw new ApiError(402, ErrorCode.subscriptionRequired, 'MCP access requires a Company subscription.');
  if (token !== MCP_KEYS.secret) throw new ApiError(401, ErrorCode.unauthorized, 'Invalid or missing secret key.');
  const accountKey = ctx.get('X-Api-Key');
  if (accountKey && accountKey !== MCP_KEYS.account) throw new ApiError(401, ErrorCode.unauthorized, 'The account key does not belong to the secret key\'s user.');
  ctx.state.keyAuth = { user: MCP_USER, company: MCP_COMPANY, keyId: 'key_test', accountKey: Boolean(accountKey) } satisfies KeyAuth;
  await next();
};

export interface McpTestApp extends TestApp {
  runtimes: ReturnType<typeof createFakeRuntimeHost>;
  /** A raw POST to /api/mcp with the good key and both Accept types unless `headers` overrides them. */
  mcp(body: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  raw(options: { method?: string; payload?: string; headers?: Record<string, string> }): Promise<TestResponse>;
}

/** The whole daemon middleware chain with /api/mcp mounted behind the stand-in guard and a fake runtime. */
export async function createMcpTestApp(): Promise<McpTestApp> {
  const runtimes = createFakeRuntimeHost();
  const t = await createTestApp({ runtimes });
  const router = new Router();
  router.all('/api/mcp', fakeKeyGuard, mcpEndpoint(t.deps));
  t.app.use(router.routes());
  const handler = t.app.callback();
  const raw: McpTestApp['raw'] = async ({ method = 'POST', payload, headers = {} }) => {
    const res = await inject(handler, {
      method: method as 'POST',
      url: '/api/mcp',
      payload,
      headers: { authorization: `Bearer ${MCP_KEYS.secret}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
    });
    let body: unknown;
    try {
      body = res.payload ? JSON.parse(res.payload) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body, text: res.payload };
  };
  return { ...t, runtimes, raw, mcp: (body, headers) => raw({ payload: typeof body === 'string' ? body : JSON.stringify(body), headers }) };
}
