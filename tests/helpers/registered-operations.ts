import { Router } from '@koa/router';
import { companyRoutes } from '../../daemon/company/index.js';
import { memberRoutes } from '../../daemon/companies/member-routes.js';
import type { Deps } from '../../daemon/deps.js';
import { ALL_TOOLS } from '../../daemon/mcp/tools/index.js';

const rowsOf = (router: Router) =>
  router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`));

/** Every Company route as `METHOD pattern`, from the routes themselves (not from the scope table). */
export function companyRouteRows(): string[] {
  const router = new Router();
  companyRoutes(router);
  return rowsOf(router);
}

/** Every route on a Company's people (`/api/companies/:id/…`), from the router itself. */
export function teamRouteRows(): string[] {
  return rowsOf(memberRoutes({} as Deps));
}

/** Every tool and action the MCP tools accept, from their own input schemas. */
export function toolActions(): Array<{ tool: string; action?: string }> {
  return ALL_TOOLS.flatMap((tool) => {
    const action = (tool.input.shape as Record<string, any>).action;
    const values: string[] | undefined = action?.options ?? action?.def?.innerType?.options;
    return values ? values.map((a) => ({ tool: tool.name, action: a })) : [{ tool: tool.name }];
  });
}
