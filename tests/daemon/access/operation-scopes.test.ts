import { Router } from '@koa/router';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ALL_SCOPES, isScope } from '../../../shared/scopes.js';
import {
  ACCOUNT_ROUTE_SCOPES,
  ROUTE_SCOPES,
  TOOL_SCOPES,
  routeNeed,
  toolNeed,
} from '../../../daemon/access/operation-scopes.js';
import { companyRoutes } from '../../../daemon/company/index.js';
import { ALL_TOOLS } from '../../../daemon/mcp/tools/index.js';

/** Every Company route as `METHOD pattern`, from the routes themselves (not from the table). */
export function registeredCompanyRoutes(): string[] {
  const router = new Router();
  companyRoutes(router);
  return router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`),
  );
}

/** Every tool and action the MCP tools accept, from their own input schemas. */
export function registeredToolActions(): Array<{ tool: string; action?: string }> {
  return ALL_TOOLS.flatMap((tool) => {
    const action = (tool.input.shape as Record<string, any>).action;
    // A zod enum's values; the read-only tools give theirs a default, which wraps the enum.
    const values: string[] | undefined = action?.options ?? action?.def?.innerType?.options;
    return values ? values.map((a) => ({ tool: tool.name, action: a })) : [{ tool: tool.name }];
  });
}

test('every registered Company route has a scope, and every row of the table is a registered route', () => {
  const routes = registeredCompanyRoutes();
  assert.ok(routes.length >= 40, `only ${routes.length} routes found`);
  const missing = routes.filter((r) => !ROUTE_SCOPES[r]);
  assert.equal(
    missing,
    [],
    'a Company route without a scope is refused to everyone: give it a row in operation-scopes.ts',
  );
  const stale = Object.keys(ROUTE_SCOPES).filter((r) => !routes.includes(r));
  assert.equal(stale, [], 'rows for routes that no longer exist');
  for (const scope of Object.values(ROUTE_SCOPES)) assert.ok(isScope(scope), scope);
});

test('every MCP tool and each of its actions has a scope; no row names a tool or action that does not exist', () => {
  const actions = registeredToolActions();
  assert.ok(actions.some((a) => a.tool === 'events' && a.action === 'trigger'));
  for (const { tool, action } of actions) {
    const entry = TOOL_SCOPES[tool];
    assert.ok(entry !== undefined, `tool ${tool} has no row in TOOL_SCOPES`);
    if (action !== undefined && entry !== null)
      assert.ok(
        typeof entry === 'object' && Object.hasOwn(entry, action),
        `tool ${tool} action ${action} has no scope`,
      );
  }
  for (const [tool, entry] of Object.entries(TOOL_SCOPES)) {
    assert.ok(
      ALL_TOOLS.some((t) => t.name === tool),
      `TOOL_SCOPES names ${tool}, which is no tool`,
    );
    if (entry && typeof entry === 'object')
      for (const action of Object.keys(entry))
        assert.ok(
          actions.some((a) => a.tool === tool && a.action === action),
          `${tool} has no action ${action}`,
        );
  }
});

test('every scope of the vocabulary is used by some operation', () => {
  const used = new Set<string>([
    ...Object.values(ROUTE_SCOPES),
    ...Object.values(ACCOUNT_ROUTE_SCOPES).filter((s) => s !== null),
    ...Object.values(TOOL_SCOPES).flatMap((e) => (e === null ? [] : typeof e === 'string' ? [e] : Object.values(e))),
  ]);
  assert.equal(
    ALL_SCOPES.filter((s) => !used.has(s)),
    [],
  );
});

test('an unknown route is not covered; an unknown action needs every scope of its tool (it can only refuse)', () => {
  assert.equal(routeNeed('GET', '/api/nope'), { known: false });
  assert.equal(routeNeed('HEAD', '/api/agents'), { known: true, scopes: ['agents:read'] });
  assert.equal(toolNeed('nope', undefined), { known: false });
  assert.equal(toolNeed('whoami', undefined), { known: true, scopes: [] });
  assert.equal(toolNeed('events', 'trigger'), { known: true, scopes: ['events:trigger'] });
  assert.equal(toolNeed('agents', 'bogus'), { known: true, scopes: ['agents:read', 'agents:write'] });
  assert.equal(toolNeed('agents', 'toString'), { known: true, scopes: ['agents:read', 'agents:write'] });
});

test.run();
