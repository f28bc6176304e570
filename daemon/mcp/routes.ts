import { Router } from '@koa/router';
import type { Deps } from '../deps.js';
import { readRaw } from '../http/body.js';
import { keyAuthOf, requireKeys } from '../keys/key-guard.js';
import { answerWithoutMethods } from './json-rpc.js';

/** /api/mcp reads its own body (app.ts lists it in the body parser's passThrough): a bad body gets a JSON-RPC error, not ours. */
export const MCP_PATH = '/api/mcp';

/**
 * The MCP endpoints behind the key guard (sk_, optional ak_, then the tier gate).
 * `POST /api/mcp/validate` says who the keys resolve to without running a tool; `POST /api/mcp`
 * answers every JSON-RPC method with -32601 until the MCP server (issue 8) is mounted here.
 */
export function mcpRoutes(deps: Deps): Router {
  const router = new Router();
  const guard = requireKeys(deps);

  router.post(`${MCP_PATH}/validate`, guard, async (ctx) => {
    const { user, company, keyId, accountKey } = keyAuthOf(ctx);
    ctx.body = {
      ok: true,
      user: { id: user.id, email: user.email },
      company: { id: company.id, name: company.name },
      account_key: accountKey,
      key_id: keyId,
      tier: user.tier,
    };
  });

  router.post(MCP_PATH, guard, async (ctx) => {
    const answer = answerWithoutMethods(await readRaw(ctx, deps.config.limits.bodyBytes));
    ctx.status = answer.status;
    // 202 carries no body; an empty string keeps Koa from filling in the status text.
    ctx.body = answer.body ?? '';
  });

  return router;
}
