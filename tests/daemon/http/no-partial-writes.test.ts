import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { RAW_BODIES, mutationsOf, toPayload } from '../../helpers/bad-inputs.js';
import { createCompany, createSecretKey } from '../../helpers/keys.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { readAccountTables } from '../../helpers/account-rows.js';
import { settleBackground } from '../../helpers/mail.js';
import { ACCOUNT_TABLE_SPECS, THROTTLE_TABLES } from '../../../daemon/store/accounts/tables.js';

/**
 * Every file of the data folder with a hash of its bytes: what a rejected request must leave alone.
 * The accounts journal is compared by its account data: a refused request still counts against the
 * throttles (that is what they are for), and their counters live in the same journal. The audit
 * trail is left out: recording refusals is what it is for (tests/daemon/audit/). Queued account
 * writes are flushed first, so none is caught half-written.
 */
async function snapshot(t: TestApp): Promise<Record<string, string>> {
  const dir = t.deps.config.dataDir;
  await t.deps.stores.flush();
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (!p.startsWith(join(dir, 'accounts') + '/') && !p.startsWith(join(dir, 'audit') + '/'))
        out[p.slice(dir.length)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  const specs = ACCOUNT_TABLE_SPECS.filter((spec) => !THROTTLE_TABLES.includes(spec.name) && spec.name !== 'meta');
  const tables = await readAccountTables(dir, specs);
  specs.forEach((spec, i) => {
    out[`accounts:${spec.name}`] = createHash('sha256').update(JSON.stringify(tables[i])).digest('hex');
  });
  return out;
}

async function setUp() {
  const t = await createTestApp({ storage: 'file' });
  const owner = await createUser(t, { tier: 'company' });
  const company = await createCompany(t, owner);
  await createSecretKey(t, owner, company.id);
  const tenant = { ...owner.auth, 'x-company': company.id };
  const agent = (await t.post('/api/agents', { name: 'ada', role: 'dev' }, tenant)).body.agent;
  const session = (await t.post('/api/sessions', { agent_id: agent.id }, tenant)).body.session;
  const invite = (await t.post('/api/dev/invites', {}, t.operator)).body.code as string;
  return { t, owner, company, tenant, agent, session, invite };
}

/** Sends each body; every one must be refused with a 4xx and leave the data folder byte for byte as it was. */
async function expectNoWrites(
  t: TestApp,
  url: string,
  bodies: unknown[],
  headers: Record<string, string>,
): Promise<number> {
  let refused = 0;
  for (const body of bodies) {
    const before = await snapshot(t);
    const payload = typeof body === 'string' ? body : toPayload(body);
    const res = await t.request({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload,
    });
    if (res.status < 400) {
      // An input the battery made valid by chance: it may write, and its mail comes after the answer.
      await settleBackground(t);
      continue;
    }
    assert.ok(res.status < 500, `${url} ${payload}: ${res.status} ${res.text}`);
    refused++;
    assert.equal(
      await snapshot(t),
      before,
      `${url} ${payload.slice(0, 200)} → ${res.status} ${res.body?.code}, yet the data folder changed`,
    );
  }
  // Guards against a vacuous pass (a broken template making everything valid, or everything a 401).
  assert.ok(refused > bodies.length / 4, `${url}: only ${refused} of ${bodies.length} bad bodies were refused`);
  return bodies.length - refused;
}

test('a refused create writes nothing: companies, keys, signup', async () => {
  const w = await setUp();
  await expectNoWrites(w.t, '/api/companies', [...RAW_BODIES, ...mutationsOf({ name: 'second co' })], w.owner.auth);
  await expectNoWrites(
    w.t,
    '/api/keys',
    [...RAW_BODIES, ...mutationsOf({ root: w.company.id, name: 'k' })],
    w.owner.auth,
  );
  const signup = mutationsOf({
    email: 'new-user@example.com',
    password: 'long enough password',
    invite_code: w.invite,
  });
  // Invites are account data: the check also proves no refused signup spent one.
  await expectNoWrites(w.t, '/api/auth/signup', [...RAW_BODIES, ...signup], {});
});

test('a refused create writes nothing in the Company runtime: agents, sessions, quests, configured events, triggers, messages', async () => {
  const w = await setUp();
  const h = w.tenant;
  await expectNoWrites(w.t, '/api/agents', [...RAW_BODIES, ...mutationsOf({ name: 'bob', role: 'ops' })], h);
  await expectNoWrites(
    w.t,
    '/api/sessions',
    [...RAW_BODIES, ...mutationsOf({ agent_id: w.agent.id, context_budget: 10 })],
    h,
  );
  await expectNoWrites(
    w.t,
    '/api/quests',
    [...RAW_BODIES, ...mutationsOf({ title: 't', agent_id: w.agent.id, session_id: w.session.id })],
    h,
  );
  const configured = {
    type: 'session:start',
    tool_calls: [{ tool: 'quests.create', args: { title: 't' } }],
    agent_id: w.agent.id,
    enabled: true,
  };
  await expectNoWrites(w.t, '/api/events', [...RAW_BODIES, ...mutationsOf(configured)], h);
  await expectNoWrites(
    w.t,
    '/api/events/trigger',
    [...RAW_BODIES, ...mutationsOf({ type: 'agent:thing', agent_id: w.agent.id, content: { a: 1 } })],
    h,
  );
  await expectNoWrites(w.t, '/api/messages', [...RAW_BODIES, ...mutationsOf({ to: w.agent.id, text: 'hi' })], h);
});

test.run();
