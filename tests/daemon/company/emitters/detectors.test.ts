import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEmitterTestApp, type EmitterTestApp } from '../../../helpers/emitters-app.js';

/** An agent "Bob" with a session, and a configured event on `type` that creates a quest titled `title`. */
async function setUp(type: string, title: string, extra: object = {}) {
  const a = await createEmitterTestApp();
  const agent = (await a.post('/api/agents', { name: 'Bob' })).body.agent;
  const session = (await a.post('/api/sessions', { agent_id: agent.id })).body.session;
  const cfg = await a.post('/api/events', { type, tool_calls: [{ tool: 'quests.create', args: { title } }], ...extra });
  assert.is(cfg.status, 201, cfg.text);
  return { a, agent, session, cfg: cfg.body.event };
}
const questTitles = async (a: EmitterTestApp) => (await a.runtime.services.quests.list()).map((q) => q.title);
const typesOf = async (a: EmitterTestApp, type: string) =>
  (await a.runtime.services.events.list({ event_type: type })).events;

test('shell:command_failed: a reported non-zero exit fires the configured tool call (a zero exit does not)', async () => {
  const { a, agent, session } = await setUp('shell:command_failed', 'Fix the build');
  const ok = await a.post('/api/detectors/report', {
    cause: 'command',
    agent_id: agent.id,
    session_id: session.id,
    command: 'npm test',
    exit_code: 0,
  });
  assert.equal(ok.body, { ok: true, emitted: [] });
  const res = await a.post('/api/detectors/report', {
    cause: 'command',
    agent_id: agent.id,
    session_id: session.id,
    command: 'npm test',
    exit_code: 1,
    stderr: '3 failing',
  });
  assert.is(res.status, 200);
  const [emitted] = res.body.emitted;
  assert.is(emitted.event.type, 'shell:command_failed');
  assert.equal(emitted.event.content, { command: 'npm test', exit_code: 1, stderr: '3 failing' });
  assert.is(emitted.fired[0].ok, true);
  assert.equal(await questTitles(a), ['Fix the build']);
  // The quest is caused by the event: trace shows the link.
  assert.is((await a.get(`/api/events/trace?event_id=${emitted.event.id}`)).body.fired[0].tool, 'quests.create');
});

test('guardrail:violation: an agent message that breaks a rule fires; the same words from a user do not', async () => {
  const { a, session } = await setUp('guardrail:violation', 'Review what Bob ran');
  await a.post(`/api/sessions/${session.id}/messages`, { from: 'user', text: 'please never run rm -rf / here' });
  assert.equal(await questTitles(a), []);
  const res = await a.post(`/api/sessions/${session.id}/messages`, { from: 'Bob', text: 'ok, running rm -rf / now' });
  assert.is(res.status, 200);
  assert.equal(await questTitles(a), ['Review what Bob ran']);
  const [ev] = await typesOf(a, 'guardrail:violation');
  assert.equal((ev!.content as { rules: string[] }).rules, ['destructive_shell']);
  assert.is(ev!.session_id, session.id);
});

test('loop:detected from repeated agent messages (once, then the cooldown)', async () => {
  const { a, session } = await setUp('loop:detected', 'Unstick Bob');
  for (let i = 0; i < 5; i++)
    await a.post(`/api/sessions/${session.id}/messages`, { from: 'agent', text: 'Let me   check the file again.' });
  assert.equal(await questTitles(a), ['Unstick Bob']);
  assert.is(((await typesOf(a, 'loop:detected'))[0]!.content as { kind: string }).kind, 'message');
});

test('loop:detected from the same tool call run by dispatch three times, caused by the third event', async () => {
  const { a, agent, session } = await setUp('loop:detected', 'Unstick the loop');
  await a.post('/api/events', {
    type: 'shell:command_failed',
    tool_calls: [{ tool: 'message_to', args: { to: agent.id, text: 'try again' } }],
  });
  const report = () =>
    a.post('/api/detectors/report', {
      cause: 'command',
      agent_id: agent.id,
      session_id: session.id,
      command: 'make',
      exit_code: 2,
    });
  await report();
  await report();
  const third = (await report()).body.emitted[0].event;
  const [loop] = await typesOf(a, 'loop:detected');
  assert.ok(loop, 'loop:detected emitted');
  assert.is((loop!.content as { kind: string }).kind, 'tool_call');
  assert.is(loop!.causation_id, third.id);
  assert.equal(await questTitles(a), ['Unstick the loop']);
});

test('graph_guardrail:high_impact from a proposed change; a harmless one emits nothing', async () => {
  const { a, agent } = await setUp('graph_guardrail:high_impact', 'Ask for a review');
  const harmless = await a.post('/api/detectors/report', {
    cause: 'proposed_change',
    agent_id: agent.id,
    files: ['src/util.ts'],
    lines_changed: 10,
  });
  assert.equal(harmless.body.emitted, []);
  const res = await a.post('/api/detectors/report', {
    cause: 'proposed_change',
    agent_id: agent.id,
    files: ['db/migrations/002.sql'],
    lines_changed: 40,
    summary: 'drop a column',
  });
  assert.is(res.body.emitted[0].event.type, 'graph_guardrail:high_impact');
  assert.equal(await questTitles(a), ['Ask for a review']);
});

test('ideas:threshold_reached on the 5th idea; agent:premature_completion when a quest is done without a result', async () => {
  const { a, agent, session } = await setUp('ideas:threshold_reached', 'Triage the ideas');
  for (let i = 1; i <= 5; i++) {
    const res = await a.post('/api/detectors/report', { cause: 'idea', agent_id: agent.id, text: `idea ${i}` });
    assert.is(res.body.emitted.length, i === 5 ? 1 : 0, `idea ${i}`);
  }
  assert.equal(await questTitles(a), ['Triage the ideas']);

  await a.post('/api/events', {
    type: 'agent:premature_completion',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Check the unfinished quest' } }],
  });
  const withResult = (await a.post('/api/quests', { title: 'Done properly', session_id: session.id })).body.quest;
  await a.post(`/api/quests/${withResult.id}`, { status: 'done', result: 'shipped' });
  assert.is((await typesOf(a, 'agent:premature_completion')).length, 0);
  const empty = (await a.post('/api/quests', { title: 'Rushed', session_id: session.id })).body.quest;
  await a.post(`/api/quests/${empty.id}`, { status: 'done' });
  const [premature] = await typesOf(a, 'agent:premature_completion');
  assert.equal(premature!.content, { quest_id: empty.id, title: 'Rushed' });
  assert.ok((await questTitles(a)).includes('Check the unfinished quest'));
});

test('questions: asked and answered events; answering resumes the agent with a turn, once', async () => {
  const { a, agent, session } = await setUp('question:asked', 'Someone must decide');
  const asked = await a.post('/api/questions', {
    agent_id: agent.id,
    session_id: session.id,
    text: 'Deploy to prod?',
    options: ['yes', 'no'],
  });
  assert.is(asked.status, 201, asked.text);
  assert.is(asked.body.event.type, 'question:asked');
  assert.is(asked.body.question.status, 'open');
  assert.equal(await questTitles(a), ['Someone must decide']);
  assert.is((await a.get('/api/questions?status=open')).body.questions.length, 1);
  const qid = asked.body.question.id;
  assert.is((await a.post(`/api/questions/${qid}/answer`, { answer: 'maybe' })).body.code, 'validation_failed');
  const answered = await a.post(`/api/questions/${qid}/answer`, { answer: 'yes' });
  assert.is(answered.status, 200, answered.text);
  assert.is(answered.body.event.type, 'question:answered');
  assert.is(answered.body.event.causation_id, asked.body.event.id);
  const s = (await a.runtime.services.sessions.get(session.id))!;
  assert.match(s.transcript.at(-1)!.text, /Deploy to prod\?.*yes/);
  assert.is(s.turn_status, 'running');
  const starts = await typesOf(a, 'session:execution_start');
  assert.is(starts.at(-1)!.causation_id, answered.body.event.id);
  assert.is((await a.post(`/api/questions/${qid}/answer`, { answer: 'no' })).status, 409);
  assert.is((await a.post('/api/questions', { agent_id: agent.id })).status, 400);
});

test('predicated and window matchers through POST /api/events', async () => {
  const { a, agent } = await setUp('shell:command_failed', 'Deploy broke', {
    matcher: { kind: 'predicated', field: 'command', regex: '^deploy\\b', flags: 'i' },
  });
  await a.post('/api/events', {
    type: 'shell:command_failed',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Flaky' } }],
    matcher: { kind: 'window', count: 2, within_ms: 60_000, cooldown_ms: 600_000, group_by: 'agent' },
  });
  const fail = (command: string) =>
    a.post('/api/detectors/report', { cause: 'command', agent_id: agent.id, command, exit_code: 1 });
  await fail('npm test');
  assert.equal(await questTitles(a), [], 'no match, and the first of the window');
  await fail('Deploy prod');
  assert.equal((await questTitles(a)).sort(), ['Deploy broke', 'Flaky'], 'the predicate matched; the window reached 2');
  a.clock.advance(30_000);
  await fail('npm test');
  assert.equal((await questTitles(a)).sort(), ['Deploy broke', 'Flaky'], 'the window is cooling down');
  const bad = await a.post('/api/detectors/report', {
    cause: 'command',
    agent_id: 'agt_nope',
    command: 'x',
    exit_code: 1,
  });
  assert.is(bad.status, 404);
  assert.is((await a.post('/api/detectors/report', { cause: 'vibes', agent_id: agent.id })).status, 400);
});

test.run();
