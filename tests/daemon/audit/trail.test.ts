import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { createCompany, createSecretKey } from '../../helpers/keys.js';
import { callMcpTool, createMcpTestApp } from '../../helpers/mcp-app.js';
import { signUpVerified } from '../../helpers/signup.js';
import { joinAs, patch } from '../../helpers/team.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

/** Every entry, oldest first, through the operator's view (after the unawaited ones are written). */
async function trail(t: TestApp, query = ''): Promise<any[]> {
  await t.deps.stores.audit.flush();
  const res = await t.get(`/api/dev/audit?limit=1000${query}`, t.operator);
  assert.is(res.status, 200, res.text);
  return res.body.entries.reverse();
}

test('each account, key and operator action leaves its entry, with who, how and the outcome', async () => {
  const t = await createTestApp();
  try {
    const email = 'ada@example.com';
    const { auth } = await signUpVerified(t, email);
    const me = (await t.get('/api/me', auth)).body;
    await t.post('/api/dev/tier', { email, tier: 'company' }, t.operator);
    const bad = await t.post('/api/auth/login', { email, password: 'wrong password here' }, { 'user-agent': 'curl/8' });
    assert.is(bad.status, 401);
    const good = await t.post('/api/auth/login', { email, password: 'correct horse battery staple' });
    assert.is(good.status, 200);
    const owner = { user: me.user ?? me, auth, token: '', password: '' } as any;
    const co = await createCompany(t, owner);
    const key = await createSecretKey(t, owner, co.id);
    assert.is((await t.post(`/api/keys/${key.id}/rotate`, { overlap_seconds: 0 }, auth)).status, 201);
    assert.is((await t.del(`/api/keys/${key.id}`, auth)).status, 200);
    await t.post('/api/auth/change-password', { current_password: 'nope nope nope', new_password: 'x' }, auth);

    const entries = await trail(t);
    const actions = entries.map((e) => `${e.action}:${e.outcome}`);
    for (const want of [
      'operator.invite:succeeded',
      'account.signup:succeeded',
      'account.verify:succeeded',
      'operator.tier:succeeded',
      'account.login:refused',
      'account.login:succeeded',
      'company.create:succeeded',
      'key.create:succeeded',
      'key.rotate:succeeded',
      'key.revoke:succeeded',
      'account.password_change:refused',
    ])
      assert.ok(actions.includes(want), `${want} missing from ${actions.join(', ')}`);
    const failed = entries.find((e) => e.action === 'account.login' && e.outcome === 'refused');
    const userId = entries.find((e) => e.action === 'account.verify').user_id;
    assert.is(failed.user_id, userId, 'a failed login is filed under the account it tried');
    assert.is(failed.actor.type, 'anonymous');
    assert.is(failed.details.factor, 'password');
    assert.is(failed.user_agent, 'curl/8');
    assert.ok(failed.reason);
    assert.ok(failed.request_id);
    const created = entries.find((e) => e.action === 'key.create');
    assert.is(created.target, key.id);
    assert.is(created.actor.user_id, userId);
    // Never a secret: no password, key or token anywhere in the trail.
    const text = JSON.stringify(entries);
    for (const secret of ['correct horse', 'wrong password', key.key, good.body.token, auth.authorization.slice(7)])
      assert.not.ok(text.includes(secret), `the trail holds a secret: ${secret.slice(0, 12)}…`);
    assert.ok((await t.deps.stores.audit.verify()).ok);
  } finally {
    await t.close();
  }
});

test("a body's company_id is input, never the entry's Company (a stream is never made up by a caller)", async () => {
  const t = await createTestApp();
  try {
    assert.is((await t.post('/api/dev/invites', { company_id: 'cmp_made_up' }, t.operator)).status, 201);
    const [invite] = await trail(t, '&action=operator.invite');
    assert.is(invite.company_id, null);
    assert.is(invite.stream, 'account');
  } finally {
    await t.close();
  }
});

test('every tools/call is an entry with a digest of its arguments, never their values; a refusal with its reason', async () => {
  const t = await createMcpTestApp();
  try {
    await callMcpTool(t, 'quests', { action: 'create', title: 'a secret plan' });
    const scoped = await t.post(
      '/api/keys',
      { root: t.company.id, name: 'reader', scopes: ['quests:read'] },
      t.owner.auth,
    );
    const refused = await t.mcp(
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'quests', arguments: { action: 'create', title: 'no' } },
      },
      { authorization: `Bearer ${scoped.body.secret_key}` },
    );
    assert.is(refused.status, 403);
    const bad = await t.mcp({ jsonrpc: '2.0', id: 10, method: 'tools/list' }, { authorization: 'Bearer sk_nonsense' });
    assert.is(bad.status, 401);
    const calls = await trail(t, '&action=mcp');
    const made = calls.find((e) => e.action === 'mcp.tools_call' && e.outcome === 'succeeded');
    assert.is(made.target, 'quests.create');
    assert.is(made.actor.key_id, t.keys.secretId);
    assert.is(made.company_id, t.company.id);
    assert.equal(made.details.args.fields, ['action', 'title']);
    assert.match(made.details.args.sha256, /^[0-9a-f]{64}$/);
    assert.not.ok(JSON.stringify(calls).includes('secret plan'));
    const no = calls.find((e) => e.action === 'mcp.tools_call' && e.outcome === 'refused');
    assert.is(no.reason, 'insufficient_scope');
    assert.is(no.actor.key_id, scoped.body.id);
    const unauth = calls.find((e) => e.action === 'mcp.request');
    assert.is(unauth.outcome, 'refused');
    assert.is(unauth.details.status, 401);
  } finally {
    await t.close();
  }
});

test('a key-authenticated REST call is an entry, refusals (401, 403) included; session calls are not', async () => {
  const t = await createMcpTestApp();
  try {
    const h = { authorization: `Bearer ${t.keys.secret}` };
    assert.is((await t.get('/api/quests?status=open', h)).status, 200);
    const reader = await t.post('/api/keys', { root: t.company.id, name: 'r', scopes: ['quests:read'] }, t.owner.auth);
    const forbidden = await t.post(
      '/api/quests',
      { title: 'x' },
      { authorization: `Bearer ${reader.body.secret_key}` },
    );
    assert.is(forbidden.status, 403);
    assert.is((await t.get('/api/quests', { authorization: 'Bearer sk_bogus' })).status, 401);
    await t.get('/api/quests', { ...t.owner.auth, 'x-company': t.company.id });
    const rest = await trail(t, '&action=rest');
    assert.is(rest.length, 3);
    assert.is(rest[0].target, 'GET /api/quests');
    assert.is(rest[0].outcome, 'succeeded');
    assert.equal(rest[0].details.args.fields, ['query']);
    assert.is(rest[1].reason, 'insufficient_scope');
    assert.is(rest[1].details.status, 403);
    assert.is(rest[2].details.status, 401);
    assert.is(rest[2].company_id, null);
  } finally {
    await t.close();
  }
});

test('GET /api/audit: own entries and owned Companies only; X-Company narrows; refusals', async () => {
  const t = await createMcpTestApp();
  try {
    const other = await createUser(t, { tier: 'company' });
    const theirs = await createCompany(t, other);
    await callMcpTool(t, 'quests', { action: 'list' });
    await t.deps.stores.audit.flush();

    const mine = await t.get('/api/audit', t.owner.auth);
    assert.is(mine.status, 200);
    assert.ok(mine.body.entries.length > 0);
    assert.ok(mine.body.entries.every((e: any) => e.user_id === t.owner.user.id || e.company_id === t.company.id));
    const seen = await t.get('/api/audit', other.auth);
    assert.ok(seen.body.entries.every((e: any) => e.user_id === other.user.id || e.company_id === theirs.id));
    assert.not.ok(
      seen.body.entries.some((e: any) => e.company_id === t.company.id),
      "another user's entries are invisible",
    );

    const narrowed = await t.get('/api/audit', { ...t.owner.auth, 'x-company': t.company.id });
    assert.ok(narrowed.body.entries.every((e: any) => e.company_id === t.company.id));
    const foreign = await t.get('/api/audit', { ...t.owner.auth, 'x-company': theirs.id });
    assert.is(foreign.status, 403);
    assert.is(foreign.body.code, 'company_forbidden');

    for (const q of [
      'outcome=maybe',
      'since=yesterday',
      'cursor=42',
      'limit=0',
      'limit=5000',
      'colour=red',
      'format=xml',
    ])
      assert.is((await t.get(`/api/audit?${q}`, t.owner.auth)).status, 400, q);
    assert.is((await t.get('/api/audit')).status, 401);
    assert.is((await t.get('/api/dev/audit', t.owner.auth)).status, 401);

    const one = await t.get('/api/audit?limit=1&action=mcp.tools_call', t.owner.auth);
    assert.is(one.body.entries.length, 1);
    const lines = await t.request({
      method: 'GET',
      url: '/api/audit',
      headers: { ...t.owner.auth, accept: 'application/x-ndjson' },
    });
    assert.match(String(lines.headers['content-type']), /ndjson/);
    const parsed = lines.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.is(parsed.length, mine.body.entries.length);

    // A key reads its own Company's entries with audit:read, and is refused without it.
    const reader = await t.post('/api/keys', { root: t.company.id, name: 'a', scopes: ['audit:read'] }, t.owner.auth);
    const byKey = await t.get('/api/audit', { authorization: `Bearer ${reader.body.secret_key}` });
    assert.is(byKey.status, 200);
    assert.ok(byKey.body.entries.every((e: any) => e.company_id === t.company.id));
    const noScope = await t.post('/api/keys', { root: t.company.id, name: 'b', scopes: ['quests:read'] }, t.owner.auth);
    const refused = await t.get('/api/audit', { authorization: `Bearer ${noScope.body.secret_key}` });
    assert.is(refused.status, 403);
    assert.is(refused.body.required_scope, 'audit:read');
    const otherCo = await t.get('/api/audit', {
      authorization: `Bearer ${reader.body.secret_key}`,
      'x-company': theirs.id,
    });
    assert.is(otherCo.status, 403);
  } finally {
    await t.close();
  }
});

test("a Company's people changes go in that Company's stream, naming the person; a refused one names no Company", async () => {
  const t = await createTestApp();
  try {
    const owner = await createUser(t, { tier: 'company' });
    const co = await createCompany(t, owner, 'acme');
    const member = await joinAs(t, owner, co.id, 'member');
    assert.is(
      (await patch(t, `/api/companies/${co.id}/members/${member.user.id}`, { role: 'viewer' }, owner.auth)).status,
      200,
    );
    // A viewer may not remove anyone: refused, and not filed under the Company it named.
    const refused = await t.del(`/api/companies/${co.id}/members/${owner.user.id}`, member.auth);
    assert.is(refused.status, 403);
    assert.is((await t.del(`/api/companies/${co.id}/members/${member.user.id}`, owner.auth)).status, 200);

    const entries = (await trail(t)).filter((e) => e.action.startsWith('company.'));
    const seen = entries.map((e) => [e.action, e.outcome, e.company_id, e.target]);
    assert.equal(
      seen.filter(([a]) => a !== 'company.create'),
      [
        ['company.invite', 'succeeded', co.id, co.id],
        ['company.invite_accept', 'succeeded', null, null],
        ['company.member_role', 'succeeded', co.id, member.user.id],
        ['company.member_remove', 'refused', null, owner.user.id],
        ['company.member_remove', 'succeeded', co.id, member.user.id],
      ],
    );
  } finally {
    await t.close();
  }
});

test('no answer leaves before its entries are durable: validate, a key-authenticated REST call, a tools/call, a refusal', async () => {
  const t = await createMcpTestApp();
  try {
    const store = t.deps.stores.audit;
    const append = store.append.bind(store);
    const held: { action: string; release(): void }[] = [];
    // The store's promise is what "durable" means to the trail: hold each one until released.
    store.append = (entry) =>
      new Promise((resolve, reject) => {
        held.push({ action: entry.action, release: () => append(entry).then(resolve, reject) });
      });
    const h = { authorization: `Bearer ${t.keys.secret}` };
    const requests: [string, () => Promise<{ status: number }>][] = [
      ['key.validate', () => t.post('/api/mcp/validate', undefined, h)],
      ['rest.call', () => t.get('/api/quests', h)],
      [
        'mcp.tools_call',
        () =>
          t.mcp({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'quests', arguments: { action: 'list' } },
          }),
      ],
      [
        'mcp.request',
        () => t.mcp({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { authorization: 'Bearer sk_nonsense' }),
      ],
    ];
    for (const [action, send] of requests) {
      let answered = false;
      const answer = send().then((res) => {
        answered = true;
        return res;
      });
      for (let i = 0; i < 50 && !held.some((w) => w.action === action); i++) await new Promise((r) => setImmediate(r));
      const waiting = held.filter((w) => w.action === action);
      assert.is(waiting.length, 1, `${action}: its entry was handed to the store`);
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      assert.not.ok(answered, `${action}: answered before its entry was durable`);
      waiting[0]!.release();
      assert.ok((await answer).status > 0);
      assert.ok(answered);
    }
    assert.is((await trail(t, '&action=key.validate')).length, 1);
  } finally {
    await t.close();
  }
});

test.run();
