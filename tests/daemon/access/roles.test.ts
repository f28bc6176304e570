import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROLES, type Role } from '../../../shared/roles.js';
import { ALL_SCOPES } from '../../../shared/scopes.js';
import { ROUTE_SCOPES, TEAM_ROUTE_SCOPES } from '../../../daemon/access/operation-scopes.js';
import { checkAccess, type Principal } from '../../../daemon/access/permission.js';
import type { UserRecord } from '../../../daemon/store/types.js';
import { roleKeyScopes } from '../../../shared/roles.js';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { joinAs } from '../../helpers/team.js';
import { createTestApp } from '../../helpers/test-app.js';
import { companyRouteRows, teamRouteRows, toolActions } from '../../helpers/registered-operations.js';

/**
 * Every role against every Company route, every route on a Company's people and every MCP tool
 * action. The expectation is written here from the roles' definition in words (docs/companies.md),
 * not read from the role table, so a row that drifts, and a new route or action with no decision,
 * fails here.
 */
const MEMBER_WRITES = ['events:trigger', 'messages:send', 'quests:write', 'sessions:write'];
const expected = (role: Role, grant: string | null): boolean => {
  if (grant === null) return true;
  switch (role) {
    case 'owner':
      return true;
    case 'admin':
      return grant !== 'company:transfer' && grant !== 'company:delete';
    case 'member':
      return grant.endsWith(':read') || MEMBER_WRITES.includes(grant);
    case 'viewer':
      return grant.endsWith(':read');
  }
};
const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const user = { id: 'usr_1', tier: 'company' } as UserRecord;

test('every role against every Company route and every route on its people', () => {
  const tenant = companyRouteRows();
  const team = teamRouteRows();
  assert.equal(
    team.filter((r) => !Object.hasOwn(TEAM_ROUTE_SCOPES, r)),
    [],
    'a route on people without a row',
  );
  assert.equal(
    Object.keys(TEAM_ROUTE_SCOPES).filter((r) => !team.includes(r)),
    [],
    'stale rows',
  );
  for (const role of ROLES) {
    const principal: Principal = { kind: 'session', user, role };
    for (const [rows, table] of [
      [tenant, ROUTE_SCOPES],
      [team, TEAM_ROUTE_SCOPES],
    ] as const) {
      for (const row of rows) {
        const [method, route] = row.split(' ') as [string, string];
        const grant = (table as Record<string, string | null>)[row];
        assert.ok(grant !== undefined, `${row} has no decision`);
        const verdict = checkAccess(principal, { kind: 'rest', method, route, table }, NOW);
        assert.is(verdict.allowed, expected(role, grant!), `${role} ${row}`);
        if (!verdict.allowed) assert.is(verdict.required_scope, grant, `${role} ${row} names what it needs`);
      }
    }
  }
});

test('every role against every MCP tool action, through the key the role makes by default', () => {
  for (const role of ROLES) {
    const scopes = roleKeyScopes(role);
    assert.equal(
      scopes,
      ALL_SCOPES.filter((s) => expected(role, s)),
    );
    const key: Principal = {
      kind: 'key',
      user,
      ownerTier: 'company',
      key: {
        id: 'k',
        user_id: 'u',
        company_id: 'c',
        name: 'n',
        hash: 'h',
        prefix: 'p',
        created_at: '',
        last_used_at: null,
        scopes,
      },
    };
    for (const { tool, action } of toolActions()) {
      const verdict = checkAccess(key, { kind: 'mcp', tool, action }, NOW);
      if (verdict.allowed) continue;
      assert.ok(verdict.required_scope && !expected(role, verdict.required_scope), `${role} ${tool} ${action}`);
    }
  }
});

test('over HTTP: each role meets 403 insufficient_scope exactly on the Company routes its role lacks', async () => {
  const t = await createTestApp();
  try {
    const owner = await createUser(t, { tier: 'company' });
    const co = await createCompany(t, owner, 'acme');
    const people: Record<Role, { auth: Record<string, string> }> = {
      owner,
      admin: await joinAs(t, owner, co.id, 'admin'),
      member: await joinAs(t, owner, co.id, 'member'),
      viewer: await joinAs(t, owner, co.id, 'viewer'),
    };
    for (const row of companyRouteRows()) {
      // The live stream answers by never ending: its decision is the table test's above.
      if (row === 'GET /api/events/stream') continue;
      const [method, pattern] = row.split(' ') as [string, string];
      const url = pattern.replace(/:[a-z_]+/g, 'zz_none');
      for (const role of ROLES) {
        const res = await t.request({
          method: method as 'GET',
          url,
          headers: { ...people[role].auth, 'x-company': co.id, 'content-type': 'application/json' },
          payload: method === 'GET' ? undefined : '{}',
        });
        const refused = res.status === 403 && res.body?.code === 'insufficient_scope';
        assert.is(
          refused,
          !expected(role, ROUTE_SCOPES[row]!),
          `${role} ${row}: ${res.status} ${res.text.slice(0, 120)}`,
        );
      }
    }
  } finally {
    await t.close();
  }
});

test.run();
