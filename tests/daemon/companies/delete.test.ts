import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { companyDataDir } from '../../../daemon/company/seam.js';
import { RUNTIME_TABLES } from '../../../daemon/store/postgres/runtime/discard.js';
import { testPostgres } from '../../helpers/postgres.js';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { invite, joinAs } from '../../helpers/team.js';
import { createTestApp, testAppModes, type TestApp } from '../../helpers/test-app.js';

/**
 * Deleting a Company: the owner only; its keys, members and pending invitations go with it in
 * one write, its runtime with them, and the audit trail keeps the record of it.
 */
const as = (u: { auth: Record<string, string> }, companyId: string) => ({ ...u.auth, 'x-company': companyId });

async function team(t: TestApp) {
  const owner = await createUser(t, { tier: 'company' });
  const co = await createCompany(t, owner, 'acme');
  const admin = await joinAs(t, owner, co.id, 'admin');
  const member = await joinAs(t, owner, co.id, 'member');
  const viewer = await joinAs(t, owner, co.id, 'viewer');
  const { code } = await invite(t, owner, co.id, 'later@example.test', 'member');
  const ownerKey = (await t.post('/api/keys', { root: co.id, name: 'owner ci' }, owner.auth)).body;
  const adminKey = (await t.post('/api/keys', { root: co.id, name: 'admin ci' }, admin.auth)).body;
  assert.is((await t.post('/api/agents', { name: 'a1' }, as(owner, co.id))).status, 201);
  return { owner, co, admin, member, viewer, code, keys: [ownerKey, adminKey] };
}

for (const mode of testAppModes()) {
  test(`${mode.name}: only the owner deletes; everyone else is refused and nothing changes`, async () => {
    const t = await mode.open();
    try {
      const { co, admin, member, viewer, keys } = await team(t);
      const url = `/api/companies/${co.id}`;
      for (const who of [admin, member, viewer]) {
        const res = await t.del(url, who.auth);
        assert.equal(
          [res.status, res.body.code, res.body.required_scope],
          [403, 'insufficient_scope', 'company:delete'],
        );
      }
      const stranger = await createUser(t, { tier: 'company' });
      const other = await t.del(url, stranger.auth);
      assert.equal([other.status, other.body.code], [403, 'company_forbidden']);
      const wrong = await t.del('/api/companies/cmp_nothing_here', stranger.auth);
      assert.equal([wrong.status, wrong.body.code], [404, 'company_not_found']);
      assert.is((await t.del(url, {})).status, 401);
      const key = await t.del(url, { authorization: `Bearer ${keys[0].secret_key}` });
      assert.is(key.status, 401, 'a key is not a session: no key deletes its Company');
      assert.is((await t.get('/api/agents', { authorization: `Bearer ${keys[0].secret_key}` })).status, 200);
      assert.is((await t.get(`${url}/members`, admin.auth)).body.members.length, 4);
    } finally {
      await t.close();
    }
  });

  test(`${mode.name}: the owner deletes; keys, members, invitations and the runtime go with it`, async () => {
    const t = await mode.open();
    try {
      const { owner, co, admin, member, code, keys } = await team(t);
      const res = await t.del(`/api/companies/${co.id}`, owner.auth);
      assert.equal(res.body, {
        ok: true,
        id: co.id,
        name: 'acme',
        deleted: true,
        members_removed: 3,
        invitations_revoked: 1,
        keys_revoked: 2,
      });
      for (const k of keys)
        assert.is((await t.get('/api/agents', { authorization: `Bearer ${k.secret_key}` })).status, 401);
      const gone = await t.get('/api/agents', as(owner, co.id));
      assert.equal([gone.status, gone.body.code], [404, 'company_not_found']);
      assert.is((await t.get('/api/agents', as(admin, co.id))).status, 404);
      for (const who of [owner, admin, member])
        assert.equal((await t.get('/api/companies', who.auth)).body.companies, []);
      const later = await createUser(t, { email: 'later@example.test' });
      const accept = await t.post('/api/invitations/accept', { code }, later.auth);
      assert.equal([accept.status, accept.body.code], [404, 'invitation_not_found']);
      const again = await t.del(`/api/companies/${co.id}`, owner.auth);
      assert.equal([again.status, again.body.code], [404, 'company_not_found']);

      // The name is free again, and a new Company of that name starts empty.
      const fresh = await createCompany(t, owner, 'acme');
      assert.equal((await t.get('/api/agents', as(owner, fresh.id))).body.agents, []);

      const trail = (await t.get('/api/audit?action=company.delete', owner.auth)).body.entries;
      assert.equal(
        trail.map((e: any) => [e.action, e.outcome, e.company_id, e.target, e.actor.user_id]),
        [
          ['company.delete', 'refused', null, co.id, owner.user.id],
          ['company.delete', 'succeeded', co.id, co.id, owner.user.id],
        ],
        'newest first: the second try found nothing to delete',
      );
    } finally {
      await t.close();
    }
  });
}

test('with a data folder, the Company runtime folder is deleted', async () => {
  const t = await createTestApp({ storage: 'file' });
  try {
    const owner = await createUser(t, { tier: 'company' });
    const co = await createCompany(t, owner, 'acme');
    assert.is((await t.post('/api/agents', { name: 'a1' }, as(owner, co.id))).status, 201);
    const dir = companyDataDir(t.deps.config.dataDir, co.id);
    assert.ok(existsSync(dir));
    assert.is((await t.del(`/api/companies/${co.id}`, owner.auth)).status, 200);
    assert.not.ok(existsSync(dir));
  } finally {
    await t.close();
  }
});

const cluster = testPostgres();
if (cluster) {
  test('team mode: every runtime row of the Company is deleted; its audit entries stay', async () => {
    const database = await (await cluster()).createDatabase();
    const t = await createTestApp({ database });
    const pool = new pg.Pool({ connectionString: database, max: 1 });
    try {
      // Every table with a company_id is either the runtime's (deleted with it) or named here as kept.
      const KEPT = ['svc_audit_entries', 'svc_memberships', 'svc_secret_keys'];
      const { rows } = await pool.query<{ table_name: string }>(
        `SELECT DISTINCT table_name FROM information_schema.columns
          WHERE column_name = 'company_id' AND table_schema = current_schema() ORDER BY table_name`,
      );
      assert.equal(
        rows.map((r) => r.table_name).filter((name) => !KEPT.includes(name)),
        [...RUNTIME_TABLES].sort(),
        'a table of the runtime that deleting a Company would leave behind',
      );

      const owner = await createUser(t, { tier: 'company' });
      const co = await createCompany(t, owner, 'acme');
      const other = await createCompany(t, owner, 'other');
      for (const c of [co, other]) {
        assert.is((await t.post('/api/agents', { name: 'a1' }, as(owner, c.id))).status, 201);
        assert.is((await t.post('/api/events/trigger', { type: 'x:y' }, as(owner, c.id))).status, 200);
      }
      const count = async (table: string, id: string) =>
        Number((await pool.query(`SELECT count(*) AS n FROM ${table} WHERE company_id = $1`, [id])).rows[0].n);
      assert.ok((await count('svc_events', co.id)) > 0 && (await count('svc_rt_agents', co.id)) === 1);
      assert.is((await t.del(`/api/companies/${co.id}`, owner.auth)).status, 200);
      for (const table of RUNTIME_TABLES) assert.is(await count(table, co.id), 0, table);
      assert.is(await count('svc_rt_agents', other.id), 1, 'the other Company keeps its runtime');
      assert.ok((await count('svc_audit_entries', co.id)) > 0, 'the trail outlives the Company');
    } finally {
      await pool.end();
      await t.close();
    }
  });
}

test.run();
