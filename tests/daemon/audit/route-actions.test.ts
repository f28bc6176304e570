import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { routeGroups } from '../../../daemon/app.js';
import { ROUTE_ACTIONS } from '../../../daemon/audit/route-actions.js';
import { ROUTE_SCOPES } from '../../../daemon/access/operation-scopes.js';
import { createTestApp } from '../../helpers/test-app.js';

/**
 * The audit decision is part of adding a route: every route the app serves either is a Company
 * route (each call with a key is a `rest.call` entry), the MCP endpoint (one entry per tools/call),
 * or has a row in ROUTE_ACTIONS — an action, or null for "no entry", chosen on purpose.
 */
test('every route has an audit decision, and every row names a route that exists', async () => {
  const t = await createTestApp();
  try {
    const served = routeGroups(t.deps).flatMap((router) =>
      router.stack
        .filter((layer) => layer.methods.length > 0)
        .flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`)),
    );
    assert.ok(served.length > 100, `only ${served.length} routes`);
    const undecided = served.filter(
      (r) => !Object.hasOwn(ROUTE_ACTIONS, r) && !Object.hasOwn(ROUTE_SCOPES, r) && !r.endsWith(' /api/mcp'),
    );
    assert.equal(undecided, [], 'give each route a row in daemon/audit/route-actions.ts');
    const stale = Object.keys(ROUTE_ACTIONS).filter((r) => !served.includes(r));
    assert.equal(stale, [], 'rows for routes that do not exist');
  } finally {
    await t.close();
  }
});

test.run();
