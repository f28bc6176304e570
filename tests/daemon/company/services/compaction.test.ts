import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../../../daemon/daemon-options.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../helpers/runtime-app.js';

/**
 * Compaction as delegation through the REST API (spec §6.2): a session that crosses its
 * context budget hands its transcript to the configured role as a quest, and continues from the
 * summary the quest returns. Budgets are 50 characters so a few messages cross them.
 */
const HOUR = 3600_000;

async function setUp(options: { role?: string | null; clock?: FakeClock } = {}) {
  const clock = options.clock ?? new FakeClock();
  const role = options.role === undefined ? 'summarizer' : options.role;
  const t = await createRuntimeTestApp({ clock, runtime: role ? { compaction: { role, timeoutMs: HOUR } } : {} });
  const ada = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  const sam = (await t.post('/api/agents', { name: 'Sam', role: 'summarizer' })).body.agent;
  const session = (await t.post('/api/sessions', { agent_id: ada.id, context_budget: 50 })).body.session;
  return { t, clock, ada, sam, session };
}
const say = (t: RuntimeTestApp, id: string, text: string) =>
  t.post(`/api/sessions/${id}/messages`, { from: 'user', text });
const sessionOf = async (t: RuntimeTestApp, id: string) => (await t.get(`/api/sessions/${id}`)).body.session;
const eventsOf = async (t: RuntimeTestApp, type: string) => (await t.get(`/api/events?event_type=${type}`)).body.events;
const compactionQuests = async (t: RuntimeTestApp) =>
  (await t.get('/api/quests')).body.quests.filter((q: any) => q.compaction_of);

test('without a compaction role a crossing fires its event and nothing else, as before', async () => {
  const { t, session } = await setUp({ role: null });
  await t.post('/api/events', {
    type: 'context:budget:exceeded',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Trim' } }],
  });
  await say(t, session.id, 'x'.repeat(60));
  const s = await sessionOf(t, session.id);
  assert.is(s.context_used, 60);
  assert.is(s.compaction, undefined);
  assert.is(s.context_summary, undefined);
  assert.equal(
    (await t.get('/api/quests')).body.quests.map((q: any) => q.title),
    ['Trim'],
  );
  assert.is((await eventsOf(t, 'context:compaction:started')).length, 0);
  // By hand it needs a role then.
  const manual = await t.post(`/api/sessions/${session.id}/compact`, {});
  assert.is(manual.status, 400);
  assert.match(manual.body.error, /--compaction-role/);
});

test('a crossing hands the transcript to the role; the session continues from the returned summary', async () => {
  const { t, sam, session } = await setUp();
  await t.post('/api/events', {
    type: 'context:budget:exceeded',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Noted' } }],
  });
  await say(t, session.id, 'a'.repeat(30));
  await say(t, session.id, 'b'.repeat(30)); // 60 > 50: the crossing
  const [exceeded] = await eventsOf(t, 'context:budget:exceeded');
  const pending = (await sessionOf(t, session.id)).compaction;
  assert.is(pending.status, 'pending');
  assert.is(pending.role, 'summarizer');
  assert.is(pending.messages, 2);
  assert.is(pending.crossing_event_id, exceeded.id);
  assert.is(pending.agent_id, sam.id);
  const [quest] = await compactionQuests(t);
  assert.equal(
    [quest.id, quest.compaction_of, quest.agent_id, quest.status],
    [pending.quest_id, session.id, sam.id, 'open'],
  );
  assert.is(quest.session_id, pending.worker_session_id);
  // The event still fired its configured tool call, as before.
  assert.ok((await t.get('/api/quests')).body.quests.some((q: any) => q.title === 'Noted'));
  const handoff = (await sessionOf(t, quest.session_id)).transcript.at(-1);
  assert.is(handoff.from, 'compaction');
  assert.match(handoff.text, new RegExp(`Compaction quest ${quest.id}: session ${session.id}`));
  // More messages while it runs: no second compaction for the same crossing.
  await say(t, session.id, 'c'.repeat(10));
  assert.is((await compactionQuests(t)).length, 1);

  const done = await t.patch(`/api/quests/${quest.id}`, {
    status: 'done',
    result: { summary: 'Ada built the thing.' },
  });
  assert.is(done.status, 200, done.text);
  const s = await sessionOf(t, session.id);
  assert.equal(s.context_summary.text, 'Ada built the thing.');
  assert.is(s.context_summary.covers, 2);
  assert.is(s.context_used, 'Ada built the thing.'.length + 10); // the summary, then what came after the hand-off
  assert.is(s.compaction.status, 'done');
  assert.is(s.transcript.length, 3, 'the transcript is kept whole');
  // The path is visible from the crossing down: started, then done.
  const trace = (await t.get(`/api/events/trace?event_id=${exceeded.id}`)).body;
  const started = trace.children.find((c: any) => c.event.type === 'context:compaction:started');
  assert.ok(started);
  assert.is(started.event.content.quest_id, quest.id);
  assert.ok(started.children.some((c: any) => c.event.type === 'context:compaction:done'));
  // Under budget again, the next crossing starts the next compaction.
  await say(t, session.id, 'd'.repeat(40));
  assert.is((await compactionQuests(t)).length, 2);
  assert.match((await sessionOf(t, quest.session_id)).transcript.at(-1).text, /summarise that summary/);
});

test('a failed quest, or one done without a summary, leaves the session as it was, compaction failed', async () => {
  const { t, session } = await setUp();
  await say(t, session.id, 'a'.repeat(60));
  const [first] = await compactionQuests(t);
  await t.patch(`/api/quests/${first.id}`, { status: 'failed' });
  let s = await sessionOf(t, session.id);
  assert.is(s.compaction.status, 'failed');
  assert.match(s.compaction.error, /failed/);
  assert.is(s.context_used, 60);
  assert.is(s.context_summary, undefined);
  assert.is((await eventsOf(t, 'context:compaction:failed')).length, 1);
  // Tried again by hand; done without a result is no summary.
  const again = await t.post(`/api/sessions/${session.id}/compact`, {});
  assert.is(again.body.started, true);
  await t.patch(`/api/quests/${again.body.quest.id}`, { status: 'done' });
  s = await sessionOf(t, session.id);
  assert.is(s.compaction.status, 'failed');
  assert.match(s.compaction.error, /without a summary/);
  assert.is(s.context_used, 60);
});

test('a role with no agent fails at once, visibly; a quest that never returns expires and may be replaced', async () => {
  const { t, clock, session } = await setUp({ role: 'nobody' });
  await say(t, session.id, 'a'.repeat(60));
  let s = await sessionOf(t, session.id);
  assert.is(s.compaction.status, 'failed');
  assert.match(s.compaction.error, /No agent has the id or role 'nobody'/);
  assert.is((await compactionQuests(t)).length, 0, 'nothing was handed off');
  assert.is((await eventsOf(t, 'context:compaction:failed')).length, 1);

  const first = (await t.post(`/api/sessions/${session.id}/compact`, { role: 'summarizer' })).body;
  assert.is(first.started, true);
  // Pending: asking again answers the pending one.
  const same = (await t.post(`/api/sessions/${session.id}/compact`, { role: 'summarizer' })).body;
  assert.equal([same.started, same.quest.id], [false, first.quest.id]);
  assert.is((await say(t, session.id, 'still usable')).status, 200);
  clock.advance(HOUR + 1);
  const second = (await t.post(`/api/sessions/${session.id}/compact`, { role: 'summarizer' })).body;
  assert.is(second.started, true);
  assert.is.not(second.quest.id, first.quest.id);
  // The late answer of the replaced quest moves nothing.
  await t.patch(`/api/quests/${first.quest.id}`, { status: 'done', result: 'stale' });
  s = await sessionOf(t, session.id);
  assert.is(s.compaction.quest_id, second.quest.id);
  assert.is(s.compaction.status, 'pending');
  assert.is(s.context_summary, undefined);
  assert.is((await eventsOf(t, 'context:compaction:done')).length, 0);
});

test('one crossing, one compaction: a sessions.compact rule and the daemon role share it', async () => {
  const { t, session } = await setUp();
  const rule = await t.post('/api/events', {
    type: 'context:budget:exceeded',
    tool_calls: [{ tool: 'sessions.compact', args: { role: 'summarizer' } }],
  });
  assert.is(rule.body.event.status, 'active');
  await say(t, session.id, 'a'.repeat(60));
  assert.is((await compactionQuests(t)).length, 1);
  const [exceeded] = await eventsOf(t, 'context:budget:exceeded');
  const trace = (await t.get(`/api/events/trace?event_id=${exceeded.id}`)).body;
  assert.is(trace.fired[0].tool, 'sessions.compact');
  assert.is(trace.fired[0].result.started, true);
  assert.is((await eventsOf(t, 'context:compaction:started')).length, 1);
  // Bad input is a clear 400, never a 500.
  assert.is((await t.post(`/api/sessions/${session.id}/compact`, { role: '' })).status, 400);
  assert.is((await t.post(`/api/sessions/${session.id}/compact`, { nope: 1 })).status, 400);
  assert.is((await t.post('/api/sessions/ses_nope/compact', {})).status, 404);
});

test('the role comes from --compaction-role, else SVC_COMPACTION_ROLE; unset, compaction is off', () => {
  const data = { data: '/tmp/svc-compaction-config' };
  assert.is(resolveConfig(data, {}).compaction, undefined);
  assert.equal(resolveConfig(data, { SVC_COMPACTION_ROLE: 'summarizer' }).compaction, { role: 'summarizer' });
  assert.equal(
    resolveConfig(
      { ...data, compactionRole: 'editor' },
      { SVC_COMPACTION_ROLE: 'x', SVC_COMPACTION_TIMEOUT_MS: '600000' },
    ).compaction,
    { role: 'editor', timeoutMs: 600_000 },
  );
  assert.throws(
    () => resolveConfig(data, { SVC_COMPACTION_ROLE: 'r', SVC_COMPACTION_TIMEOUT_MS: 'soon' }),
    /SVC_COMPACTION_TIMEOUT_MS/,
  );
});

test.run();
