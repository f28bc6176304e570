import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createWalk, decodeClaims } from '../helpers/contract-walk.js';
import { startDaemonProcess } from '../helpers/daemon-process.js';
import { mailedCode } from '../proof/lib/accounts.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * CONTRACT.md and the spec, checked from outside: one real daemon process (`--port 0`), the built
 * CLI as a process with the §5 environment, and plain HTTP — the walk a new user takes, from
 * signup to logout. Each test builds on the one before, in order.
 */
const dataDir = tempDir('svc-contract-data');
const configDir = tempDir('svc-contract-config');
let daemon: Awaited<ReturnType<typeof startDaemonProcess>>;
const walk = createWalk(() => daemon.url, dataDir, configDir);
const { svc, svcJson, http } = walk;

const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse battery staple';
const s: Record<string, any> = {};

test.before(async () => {
  daemon = await startDaemonProcess(dataDir);
  s.op = readFileSync(join(dataDir, 'operator-token'), 'utf8').trim();
});
test.after(async () => {
  await daemon?.stop();
});

const isErrorBody = (body: any) => typeof body?.error === 'string' && /^[a-z][a-z0-9_]*$/.test(body?.code);

test('§2 the daemon: first line, /healthz, secrets 0600, one daemon per data folder', async () => {
  assert.match(daemon.firstLine, /^listening on http:\/\/127\.0\.0\.1:\d+$/);
  const health = await http('GET', '/healthz');
  assert.is(health.status, 200);
  assert.is(health.text, '{"ok":true}');
  for (const file of ['operator-token', 'jwt-secret'])
    assert.is(statSync(join(dataDir, file)).mode & 0o777, 0o600, file);
  const [second, status] = await Promise.all([
    svc(['daemon', 'start', '--foreground', '--port', '0', '--data', dataDir]),
    svcJson(['daemon', 'status']),
  ]);
  assert.is.not(second.code, 0);
  assert.match(second.stderr, /another svc daemon .* is using the data folder/);
  assert.is(status.running, true);
  assert.is(status.url, daemon.url);
});

test('§7 svc daemon start --foreground --json: the first line stays, then one JSON object', async () => {
  const other = await startDaemonProcess(tempDir('svc-contract-json'), ['--json']);
  try {
    const [first, second] = other.stdout().split('\n');
    assert.is(first, `listening on ${other.url}`);
    const banner = JSON.parse(second!);
    assert.is(banner.url, other.url);
    assert.type(banner.invite_code, 'string');
  } finally {
    assert.is(await other.terminate(), 0);
  }
});

test('§3 operator surface: token-guarded, invites, mail shape', async () => {
  const bare = await http('POST', '/api/dev/invites');
  assert.is(bare.status, 401);
  assert.ok(isErrorBody(bare.body));
  const invite = await http('POST', '/api/dev/invites', { token: s.op });
  assert.is(invite.status, 201);
  assert.equal(Object.keys(invite.body), ['code']);
  // The operator token opens nothing but /api/dev/*.
  assert.is((await http('GET', '/api/companies', { token: s.op })).status, 401);
  s.invite = (await svcJson(['admin', 'invite'])).code;
  assert.type(s.invite, 'string');
  const mail = await http('GET', '/api/dev/mail', { token: s.op });
  assert.equal(mail.body, { mail: [] });
});

test('signup → mail → verify (new users start on trial)', async () => {
  const up = await svcJson(['signup', '--email', EMAIL, '--invite', s.invite, '--password-stdin'], {
    input: PASSWORD + '\n',
  });
  assert.is(up.pending_verification, true);
  // The code is mailed once the answer is out (enumeration safety): wait for it.
  await mailedCode(daemon.url, dataDir, EMAIL);
  const mail = await http('GET', `/api/dev/mail?to=${encodeURIComponent(EMAIL)}`, { token: s.op });
  assert.is(mail.body.mail.length, 1);
  const [msg] = mail.body.mail;
  assert.equal(Object.keys(msg).sort(), ['code', 'created_at', 'id', 'link', 'subject', 'text', 'to']);
  assert.is(msg.to, EMAIL);
  assert.match(msg.code, /^\d{6}$/);
  const after = await http('GET', `/api/dev/mail?to=${encodeURIComponent(EMAIL)}&since_id=${msg.id}`, { token: s.op });
  assert.equal(after.body, { mail: [] });
  const verified = await svcJson(['verify', '--code', msg.code]);
  assert.is(verified.verified, true);
  const me = await svcJson(['whoami']);
  assert.is(me.email, EMAIL);
  assert.is(me.tier, 'trial');
});

test('logout, login; the JWT carries user_id, email, exp, iat and a session id', async () => {
  await svcJson(['logout']);
  assert.is((await svc(['whoami'])).code, 4);
  const login = await svcJson(['login', '--email', EMAIL, '--password-stdin'], { input: PASSWORD + '\n' });
  assert.is(login.ok, true);
  s.token = walk.storedToken();
  const claims = decodeClaims(s.token);
  for (const claim of ['user_id', 'email', 'exp', 'iat', 'sid']) assert.ok(claims[claim] !== undefined, claim);
  assert.is(claims.email, EMAIL);
  const direct = await http('POST', '/api/auth/login/email', { body: { email: EMAIL, password: PASSWORD } });
  assert.is(direct.status, 200);
  assert.is(direct.body.ok, true);
  assert.type(direct.body.token, 'string');
});

test("§4 companies: create → {ok, id, name}; the list is the caller's", async () => {
  const made = await svcJson(['companies', 'create', 'Acme']);
  assert.is(made.ok, true);
  assert.is(made.name, 'Acme');
  s.company = made.id;
  const list = await http('GET', '/api/companies', { token: s.token });
  assert.equal(
    list.body.companies.map((c: any) => c.id),
    [s.company],
  );
});

test('spec §7: a trial account gets 402 "MCP access requires a Company subscription"', async () => {
  const res = await http('POST', '/api/keys', { token: s.token, body: { root: 'Acme', name: 'early' } });
  assert.is(res.status, 402);
  assert.ok(isErrorBody(res.body));
  assert.match(res.body.error, /MCP access requires a Company subscription/);
  const cli = await svc(['keys', 'create', '--root', 'Acme', '--name', 'early', '--json']);
  assert.is.not(cli.code, 0);
  assert.match(cli.stderr, /MCP access requires a Company subscription/);
});

test('admin tier company → keys create (root by name or id), validate, account key rotation', async () => {
  assert.is((await svcJson(['admin', 'tier', EMAIL, 'company'])).user.tier, 'company');
  const key = await svcJson(['keys', 'create', '--root', 'Acme', '--name', 'ci']);
  assert.is(key.ok, true);
  assert.match(key.secret_key, /^sk_/);
  assert.type(key.note, 'string');
  s.sk = key.secret_key;
  const byId = await http('POST', '/api/keys', { token: s.token, body: { root: s.company, name: 'by-id' } });
  assert.ok(byId.status === 200 || byId.status === 201, byId.text);
  assert.match(byId.body.secret_key, /^sk_/);
  const first = await svcJson(['account-key', 'rotate']);
  assert.match(first.api_key, /^ak_/);
  assert.is(first.rotated, false);
  const again = await http('POST', '/api/account/api-key', { token: s.token });
  assert.is(again.body.rotated, true);
  s.ak = again.body.api_key;
  const old = await http('POST', '/api/mcp/validate', { token: s.sk, headers: { 'x-api-key': first.api_key } });
  assert.is(old.status, 401, 'the replaced account key stops at once');
  // SVC_SECRET_KEY / SVC_ACCOUNT_KEY are honoured with an empty config folder.
  const valid = await svcJson(['keys', 'validate'], {
    env: { SVC_SECRET_KEY: s.sk, SVC_ACCOUNT_KEY: s.ak, SVC_CONFIG_DIR: tempDir('svc-contract-empty') },
  });
  assert.is(valid.user.email, EMAIL);
  assert.is(valid.company.id, s.company);
  const list = await http('GET', '/api/keys', { token: s.token });
  assert.is(list.body.keys.length, 2);
  assert.not.match(list.text, /sk_[A-Za-z0-9]{20,}/, 'the list shows metadata only');
  assert.is((await svcJson(['keys', 'revoke', byId.body.id])).revoked, true);
  assert.is(
    (await http('POST', '/api/mcp/validate', { token: byId.body.secret_key })).status,
    401,
    'a revoked key stops at once',
  );
});

test('spec §5.2: a runtime call without a Company → 400 "X-Company header required"; 413, 415', async () => {
  const res = await http('POST', '/api/agents', { token: s.token, body: { name: 'ada' } });
  assert.is(res.status, 400);
  assert.is(res.body.error, 'X-Company header required');
  assert.ok(isErrorBody(res.body));
  const big = await http('POST', '/api/quests', {
    token: s.token,
    headers: { 'x-company': s.company },
    body: JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) }),
  });
  assert.is(big.status, 413);
  const text = await http('POST', '/api/quests', {
    token: s.token,
    headers: { 'x-company': s.company, 'content-type': 'text/plain' },
    body: 'hello',
  });
  assert.is(text.status, 415);
  assert.ok(isErrorBody(big.body) && isErrorBody(text.body));
});

test('§8 agents, sessions, quests under X-Company, X-Entity, company_id, trust_id and a secret key', async () => {
  const h = { 'x-company': s.company };
  const agent = await http('POST', '/api/agents', { token: s.token, headers: h, body: { name: 'ada', role: 'dev' } });
  assert.is(agent.body.ok, true);
  assert.equal([agent.body.agent.name, agent.body.agent.role], ['ada', 'dev']);
  s.agent = agent.body.agent.id;
  const session = await http('POST', '/api/sessions', {
    token: s.token,
    headers: { 'x-entity': s.company },
    body: { agent_id: s.agent },
  });
  assert.is(session.body.ok, true);
  assert.is(session.body.session.agent_id, s.agent);
  assert.type(session.body.session.id, 'string');
  assert.type(session.body.session.status, 'string');
  const quest = await http('POST', `/api/quests?company_id=${s.company}`, {
    token: s.token,
    body: { title: 'first quest' },
  });
  assert.is(quest.body.ok, true);
  assert.is(quest.body.quest.title, 'first quest');
  const legacy = await http('GET', `/api/quests?trust_id=${s.company}`, { token: s.token });
  assert.equal(
    legacy.body.quests.map((q: any) => q.title),
    ['first quest'],
  );
  const byKey = await http('GET', '/api/agents', { token: s.sk, headers: { 'x-api-key': s.ak } });
  assert.equal(
    byKey.body.agents.map((a: any) => a.id),
    [s.agent],
  );
});

test('§8 events over HTTP: create, configured list, trigger fires quests.create and message_to, trace', async () => {
  const h = { 'x-company': s.company };
  const tool_calls = [
    { tool: 'quests.create', args: { title: 'from the bus' } },
    { tool: 'message_to', args: { to: 'dev', text: 'look at this' } },
  ];
  const made = await http('POST', '/api/events', {
    token: s.token,
    headers: h,
    body: { type: 'session:quest_end', tool_calls },
  });
  assert.is(made.body.ok, true);
  assert.is(made.body.event.status, 'active');
  const paused = await http('POST', '/api/events', {
    token: s.token,
    headers: h,
    body: { type: 'session:quest_end', tool_calls: [], enabled: false },
  });
  assert.is(paused.body.event.status, 'paused');
  const configured = await http('GET', '/api/events?configured=true', { token: s.token, headers: h });
  assert.ok(configured.body.events.some((e: any) => e.id === made.body.event.id));
  const fired = await http('POST', '/api/events/trigger', {
    token: s.token,
    headers: h,
    body: { type: 'session:quest_end', content: { why: 'walk' } },
  });
  assert.is(fired.body.ok, true);
  assert.equal(
    fired.body.fired.map((f: any) => [f.configured_event_id, f.tool, f.ok]),
    [
      [made.body.event.id, 'quests.create', true],
      [made.body.event.id, 'message_to', true],
    ],
  );
  const quests = await http('GET', '/api/quests', { token: s.token, headers: h });
  assert.ok(quests.body.quests.some((q: any) => q.title === 'from the bus'));
  s.event = fired.body.event.id;
  const traceGet = await http('GET', `/api/events/trace?event_id=${s.event}`, { token: s.token, headers: h });
  const tracePost = await http('POST', '/api/events/trace', {
    token: s.token,
    headers: h,
    body: { event_id: s.event },
  });
  assert.is(traceGet.body.event.id, s.event);
  assert.ok(Array.isArray(traceGet.body.children));
  assert.equal(tracePost.body.event, traceGet.body.event);
  const page = await http('GET', '/api/events?limit=2', { token: s.token, headers: h });
  assert.is(page.body.events.length, 2);
  assert.ok('next_since_id' in page.body);
  const rest = await http('GET', `/api/events?since_id=${page.body.next_since_id}`, { token: s.token, headers: h });
  const ids = [...page.body.events, ...rest.body.events].map((e: any) => e.id);
  assert.equal(ids, [...ids].sort(), 'oldest first');
  for (const key of ['id', 'type', 'agent_id', 'session_id', 'quest_id', 'content', 'created_at'])
    assert.ok(key in page.body.events[0], key);
});

test('§7 events through the CLI (--json): create, trigger, trace, list, disable, delete', async () => {
  const call = JSON.stringify({ tool: 'quests.create', args: { title: 'from the cli' } });
  const made = await svcJson(['events', 'create', '--pattern', 'session:quest_result', '--tool-call', call]);
  assert.is(made.status, 'active');
  const fired = await svcJson(['events', 'trigger', 'session:quest_result', '--content', '{"n":1}']);
  assert.equal(
    fired.fired.map((f: any) => [f.configured_event_id, f.tool, f.ok]),
    [[made.id, 'quests.create', true]],
  );
  // --idempotency-key: a repeat prints the first answer and fires nothing (CONTRACT §8).
  const keyed = ['events', 'trigger', 'session:quest_result', '--idempotency-key', 'cli-walk-1'];
  const once = await svcJson(keyed);
  assert.equal(await svcJson(keyed), once);
  const [trace, list, disabled] = await Promise.all([
    svcJson(['events', 'trace', fired.event.id]),
    svcJson(['events', 'list', '--type', 'session:quest_result']),
    svcJson(['events', 'disable', made.id]),
  ]);
  assert.is(trace.event.id, fired.event.id);
  // Every list prints a bare array under --json (docs/cli.md).
  assert.equal(
    list.map((e: any) => e.id),
    [fired.event.id, once.event.id],
  );
  assert.is(disabled.status, 'paused');
  assert.is((await svcJson(['events', 'delete', made.id])).ok, true);
});

test("§4 403 on another user's Company", async () => {
  const invite = await http('POST', '/api/dev/invites', { token: s.op });
  const other = await http('POST', '/api/auth/signup', {
    body: { email: 'bo@example.com', password: PASSWORD, invite_code: invite.body.code },
  });
  const verified = await http('POST', '/api/auth/verify', {
    body: { email: 'bo@example.com', code: await mailedCode(daemon.url, dataDir, 'bo@example.com') },
  });
  assert.type(other.body.token, 'string');
  const res = await http('GET', '/api/agents', { token: verified.body.token, headers: { 'x-company': s.company } });
  assert.is(res.status, 403);
  assert.ok(isErrorBody(res.body));
});

test('sessions list, SVC_TOKEN, logout; the revoked token is refused on its next request', async () => {
  const sessions = await svcJson(['sessions', 'list']);
  assert.ok(sessions.some((x: any) => x.current === true));
  const viaEnv = await svcJson(['whoami'], {
    env: { SVC_TOKEN: s.token, SVC_CONFIG_DIR: tempDir('svc-contract-empty') },
  });
  assert.is(viaEnv.email, EMAIL);
  assert.is((await svcJson(['logout'])).ok, true);
  const after = await http('GET', '/api/companies', { token: s.token });
  assert.is(after.status, 401);
  assert.ok(isErrorBody(after.body));
});

test('nothing printed to a pipe carries a terminal escape', () => {
  assert.ok(walk.outputs.length > 20);
  for (const out of walk.outputs) assert.not.match(out, /\x1b/);
});

test('§2 SIGTERM: the daemon exits 0 and releases the data folder', async () => {
  assert.is(await daemon.terminate(), 0);
  assert.not.ok(existsSync(join(dataDir, 'daemon.lock')));
});

test.run();
