import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { createMcpTestApp, type McpTestApp } from '../../helpers/mcp-app.js';
import { testPostgres } from '../../helpers/postgres.js';

/**
 * One causal trace: a tools/call (or a REST call made with a key) is a node in the events trace.
 * The events it set off hang under its audit entry, which names the key or OAuth client; the
 * caller's W3C traceparent is kept on the entry and on every event the call caused; a refused call
 * is a trace of one node with its reason. On the memory store and on PostgreSQL.
 */
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

const cluster = testPostgres();
const modes: Array<{ name: string; open: () => Promise<McpTestApp> }> = [
  { name: 'memory store', open: () => createMcpTestApp({ config: { mcpToolCallsPerMinute: 5 } }) },
  ...(cluster
    ? [
        {
          name: 'PostgreSQL',
          open: async () =>
            createMcpTestApp({
              config: { mcpToolCallsPerMinute: 5 },
              database: await (await cluster()).createDatabase(),
            }),
        },
      ]
    : []),
];
if (!cluster) console.log('call-trace: PostgreSQL not found, its mode skipped');

const modernCall = (name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 9,
  method: 'tools/call',
  params: {
    name,
    arguments: args,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'trace-test', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
      ...meta,
    },
  },
});
const modernHeaders = (name: string) => ({
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': name,
});

for (const mode of modes) {
  const test = suite(`a trace that starts at a call (${mode.name})`);
  let t: McpTestApp;
  let sessionId: string;
  test.before.each(async () => {
    t = await mode.open();
    const as = { ...t.owner.auth, 'x-company': t.company.id };
    const agent = await t.post('/api/agents', { name: 'ops' }, as);
    const session = await t.post('/api/sessions', { agent_id: agent.body.agent.id }, as);
    sessionId = session.body.session.id;
    // A rule: the event stops the session, which emits session:stopped, so the
    // call's event has a child.
    const rule = await t.post(
      '/api/events',
      { type: 'guardrail:violation', tool_calls: [{ tool: 'sessions.update', args: { status: 'stopped' } }] },
      as,
    );
    assert.is(rule.status, 201, rule.text);
  });
  test.after.each(() => t.close());

  const entries = async (action: string) => {
    await t.deps.stores.audit.flush();
    const res = await t.get(`/api/audit?action=${action}&limit=100`, t.owner.auth);
    assert.is(res.status, 200, res.text);
    return res.body.entries as any[];
  };
  const traceOf = (id: string) => t.get(`/api/audit/${id}/trace`, t.owner.auth);

  test('a tools/call: its events hang under it, with the key that made it and its traceparent', async () => {
    const res = await t.mcp(
      modernCall(
        'events',
        { action: 'trigger', type: 'guardrail:violation', session_id: sessionId },
        { traceparent: TRACEPARENT },
      ),
      modernHeaders('events'),
    );
    assert.is(res.status, 200, res.text);
    const [entry] = await entries('mcp.tools_call');
    assert.is(entry.details.traceparent, TRACEPARENT);
    assert.is(entry.details.events.length, 1);

    const trace = await traceOf(entry.id);
    assert.is(trace.status, 200, trace.text);
    assert.is(trace.body.call.id, entry.id);
    assert.is(trace.body.call.actor.key_id, t.keys.secretId);
    assert.is(trace.body.call.outcome, 'succeeded');
    const [root] = trace.body.children;
    assert.is(root.event.type, 'guardrail:violation');
    assert.is(root.event.origin.actor.key_id, t.keys.secretId);
    assert.is(root.event.origin.target, 'events.trigger');
    assert.is(root.event.origin.traceparent, TRACEPARENT);
    assert.ok(
      root.fired.some((f: any) => f.tool === 'sessions.update' && f.ok),
      JSON.stringify(root),
    );
    // What the rule's call caused in turn carries the same origin: the call's traceparent reaches it.
    const caused = root.children.flatMap((c: any) => [c, ...c.children]);
    assert.ok(caused.length > 0, 'the rule emitted nothing under the event');
    for (const c of caused) assert.is(c.event.origin?.traceparent, TRACEPARENT, c.event.type);

    // The events log and the event's own trace name the call too, read back from storage.
    const list = await t.get('/api/events?event_type=guardrail:violation', {
      ...t.owner.auth,
      'x-company': t.company.id,
    });
    assert.is(list.body.events[0].origin.request_id, entry.request_id);
    const byEvent = await t.get(`/api/events/trace?event_id=${root.event.id}`, {
      ...t.owner.auth,
      'x-company': t.company.id,
    });
    assert.is(byEvent.body.event.origin.action, 'mcp.tools_call');
  });

  test('a call refused by scope, and one over the rate limit: a trace of one node with its reason', async () => {
    const narrow = await t.post(
      '/api/keys',
      { root: t.company.id, name: 'reader', scopes: ['events:read'] },
      t.owner.auth,
    );
    assert.is(narrow.status, 201, narrow.text);
    const refused = await t.mcp(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'events', arguments: { action: 'trigger', type: 'guardrail:violation' } },
      },
      { authorization: `Bearer ${narrow.body.secret_key}`, 'mcp-protocol-version': '2025-11-25' },
    );
    assert.is(refused.status, 403);
    for (let i = 0; i < 6; i++)
      await t.mcp(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
        { 'mcp-protocol-version': '2025-11-25' },
      );
    const calls = await entries('mcp.tools_call');
    const scope = calls.find((e) => e.reason === 'insufficient_scope');
    const rate = calls.find((e) => e.reason === 'rate_limited');
    assert.ok(scope && rate, JSON.stringify(calls.map((e) => e.reason)));
    for (const [entry, status, reason] of [
      [scope, 403, 'insufficient_scope'],
      [rate, 429, 'rate_limited'],
    ] as const) {
      const trace = await traceOf(entry.id);
      assert.is(trace.status, 200, trace.text);
      assert.is(trace.body.call.outcome, 'refused');
      assert.is(trace.body.call.reason, reason);
      assert.is(trace.body.call.details.status, status);
      assert.equal(trace.body.children, []);
    }
    assert.is(scope.actor.key_id, narrow.body.id);
    // Nothing was appended for the refused trigger.
    const list = await t.get('/api/events?event_type=guardrail:violation', {
      ...t.owner.auth,
      'x-company': t.company.id,
    });
    assert.equal(list.body.events, []);
  });

  test('a malformed traceparent is ignored, and the entry says so; the call still runs', async () => {
    const res = await t.mcp(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: {
          name: 'events',
          arguments: { action: 'trigger', type: 'guardrail:violation' },
          _meta: { traceparent: '00-zz-1' },
        },
      },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    assert.is(res.status, 200, res.text);
    assert.not.ok(res.body.result.isError, res.text);
    const [entry] = await entries('mcp.tools_call');
    assert.is(entry.details.traceparent, undefined);
    assert.is(entry.details.traceparent_ignored, 'malformed');
    const trace = await traceOf(entry.id);
    assert.is(trace.body.children[0].event.origin.traceparent, null);
  });

  test('a REST call made with a key is a node too; its traceparent header is kept', async () => {
    const res = await t.post(
      '/api/events/trigger',
      { type: 'guardrail:violation' },
      { authorization: `Bearer ${t.keys.secret}`, traceparent: TRACEPARENT },
    );
    assert.is(res.status, 200, res.text);
    const [entry] = await entries('rest.call');
    assert.is(entry.target, 'POST /api/events/trigger');
    assert.is(entry.details.traceparent, TRACEPARENT);
    assert.equal(entry.details.events, [res.body.event.id]);
    const trace = await traceOf(entry.id);
    assert.is(trace.body.children[0].event.id, res.body.event.id);
    assert.is(trace.body.children[0].event.origin.actor.key_id, t.keys.secretId);
  });

  test("refusals of the trace route: another account's entry is a 404, a key needs audit:read and events:read", async () => {
    await t.post('/api/events/trigger', { type: 'guardrail:violation' }, { authorization: `Bearer ${t.keys.secret}` });
    const [entry] = await entries('rest.call');
    const stranger = await createUser(t, { tier: 'company' });
    await createCompany(t, stranger, 'other');
    const theirs = await t.get(`/api/audit/${entry.id}/trace`, stranger.auth);
    assert.is(theirs.status, 404);
    assert.is(theirs.body.code, 'not_found');
    for (const bad of ['aud_x', 'nothing', 'aud_9999999999999999']) assert.is((await traceOf(bad)).status, 404, bad);
    assert.is((await t.get(`/api/audit/${entry.id}/trace`)).status, 401);
    const auditOnly = await t.post(
      '/api/keys',
      { root: t.company.id, name: 'auditor', scopes: ['audit:read'] },
      t.owner.auth,
    );
    const refused = await t.get(`/api/audit/${entry.id}/trace`, {
      authorization: `Bearer ${auditOnly.body.secret_key}`,
    });
    assert.is(refused.status, 403);
    assert.is(refused.body.code, 'insufficient_scope');
    assert.is(refused.body.required_scope, 'events:read');
    const both = await t.post(
      '/api/keys',
      { root: t.company.id, name: 'auditor2', scopes: ['audit:read', 'events:read'] },
      t.owner.auth,
    );
    const ok = await t.get(`/api/audit/${entry.id}/trace`, { authorization: `Bearer ${both.body.secret_key}` });
    assert.is(ok.status, 200, ok.text);
    assert.is(ok.body.children.length, 1);
  });

  test.run();
}
