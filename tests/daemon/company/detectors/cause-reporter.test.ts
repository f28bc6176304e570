import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCauseReporter } from '../../../../daemon/company/detectors/cause-reporter.js';
import { createMatcherEngine } from '../../../../daemon/company/detectors/matcher-engine.js';
import { createFakeEvents } from '../../../helpers/fake-events.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

function setup() {
  const clock = new FakeClock();
  const events = createFakeEvents(clock);
  const reporter = createCauseReporter({ clock, events: events.service });
  return { clock, events, reporter };
}
const scope = { agent_id: 'ag_1', session_id: 'se_1' };

test('shell: a non-zero exit emits shell:command_failed, a zero exit nothing', async () => {
  const { events, reporter } = setup();
  assert.is(await reporter.reportCommand(scope, { command: 'npm test', exit_code: 0 }), null);
  const out = await reporter.reportCommand(scope, { command: 'npm test', exit_code: 1, stderr: '3 failing' });
  assert.is(out?.event.type, 'shell:command_failed');
  assert.equal(events.emits[0], {
    type: 'shell:command_failed',
    agent_id: 'ag_1',
    session_id: 'se_1',
    quest_id: null,
    caused_by: null,
    content: { command: 'npm test', exit_code: 1, stderr: '3 failing' },
  });
});

test('guardrail: agent output breaking a rule emits guardrail:violation with the rule names', async () => {
  const { events, reporter } = setup();
  assert.equal(await reporter.reportOutput(scope, 'all good, tests pass'), []);
  const [violation] = await reporter.reportOutput(scope, 'cleaning up: rm -rf / and DROP TABLE users;');
  assert.is(violation?.event.type, 'guardrail:violation');
  assert.equal((events.emits[0]!.content as { rules: string[] }).rules, ['destructive_shell', 'destructive_sql']);
  await reporter.reportOutput(scope, `key: sk_${'A1b2'.repeat(11)}`);
  assert.equal((events.emits[1]!.content as { rules: string[] }).rules, ['api_key_leak']);
});

test('guardrail: a rule broken past the first 4 KiB of the output still fires', async () => {
  const { events, reporter } = setup();
  const [violation] = await reporter.reportOutput(scope, `${' '.repeat(4_100)}DROP TABLE users;`);
  assert.is(violation?.event.type, 'guardrail:violation');
  assert.equal((events.emits[0]!.content as { rules: string[] }).rules, ['destructive_sql']);
  await reporter.reportOutput(scope, `${'ok '.repeat(100_000)}then git push --force origin main`);
  assert.equal((events.emits[1]!.content as { rules: string[] }).rules, ['force_push']);
});

test('loop: the same message 3 times within 10 minutes emits loop:detected once, per session', async () => {
  const { clock, events, reporter } = setup();
  for (let i = 0; i < 2; i++) assert.equal(await reporter.reportOutput(scope, 'Let me try that again.'), []);
  assert.equal(
    await reporter.reportOutput({ ...scope, session_id: 'se_2' }, 'Let me try that again.'),
    [],
    'another session counts apart',
  );
  const [loop] = await reporter.reportOutput(scope, '  Let me   try that again. ');
  assert.is(loop?.event.type, 'loop:detected');
  assert.equal(await reporter.reportOutput(scope, 'Let me try that again.'), [], 'cooldown');
  clock.advance(11 * 60_000);
  assert.equal(events.emits.filter((e) => e.type === 'loop:detected').length, 1);
});

test('loop: the same tool call with the same arguments (in any key order) repeats', async () => {
  const { reporter } = setup();
  assert.is(await reporter.reportToolCall(scope, { tool: 'fs.read', args: { path: 'a', limit: 1 } }), null);
  assert.is(await reporter.reportToolCall(scope, { tool: 'fs.read', args: { path: 'b', limit: 1 } }), null);
  assert.is(await reporter.reportToolCall(scope, { tool: 'fs.read', args: { limit: 1, path: 'a' } }), null);
  const loop = await reporter.reportToolCall(scope, { tool: 'fs.read', args: { path: 'a', limit: 1 } });
  assert.is(loop?.event.type, 'loop:detected');
  assert.equal((loop!.event.content as { kind: string }).kind, 'tool_call');
});

test('graph guardrail: high-impact paths or a large change emit graph_guardrail:high_impact', async () => {
  const { events, reporter } = setup();
  assert.is(await reporter.reportProposedChange(scope, { files: ['src/ui/button.tsx'], lines_changed: 20 }), null);
  const out = await reporter.reportProposedChange(scope, {
    files: ['db/migrations/002_drop.sql', 'src/x.ts'],
    lines_changed: 900,
  });
  assert.is(out?.event.type, 'graph_guardrail:high_impact');
  assert.equal((events.emits[0]!.content as { reasons: string[] }).reasons, ['migrations', 'large_change']);
});

test('premature completion: a quest done without a result', async () => {
  const { events, reporter } = setup();
  assert.is(
    await reporter.reportQuestDone(scope, { id: 'q1', title: 'Fix', status: 'done', result: { pr: 12 } }),
    null,
  );
  assert.is(await reporter.reportQuestDone(scope, { id: 'q1', title: 'Fix', status: 'failed', result: null }), null);
  const out = await reporter.reportQuestDone(
    { ...scope, caused_by: 'ev_7' },
    { id: 'q2', title: 'Ship', status: 'done', result: ' ' },
  );
  assert.is(out?.event.type, 'agent:premature_completion');
  assert.equal(events.emits[0], {
    type: 'agent:premature_completion',
    agent_id: 'ag_1',
    session_id: 'se_1',
    quest_id: 'q2',
    caused_by: 'ev_7',
    content: { quest_id: 'q2', title: 'Ship' },
  });
});

test('ideas: the fifth idea of an agent within a day emits ideas:threshold_reached once', async () => {
  const { events, reporter } = setup();
  const results = [];
  for (let i = 0; i < 7; i++) results.push(await reporter.reportIdea(scope, { text: `idea ${i}` }));
  assert.equal(
    results.map((r) => r?.event.type ?? null),
    [null, null, null, null, 'ideas:threshold_reached', null, null],
  );
  assert.is(events.emits.length, 1);
});

test('cause → pattern → matcher: a predicated detector on shell failures lets only matching commands through', async () => {
  const { clock, events, reporter } = setup();
  const engine = createMatcherEngine({ clock });
  const cfg = await events.service.create({
    type: 'shell:command_failed',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Fix the tests' } }],
    matcher: { kind: 'predicated', field: 'command', regex: '^npm (test|run test)' },
  });
  const a = await reporter.reportCommand(scope, { command: 'npm test', exit_code: 1 });
  const b = await reporter.reportCommand(scope, { command: 'ls missing', exit_code: 2 });
  assert.ok(await engine.allows(cfg, a!.event));
  assert.not.ok(await engine.allows(cfg, b!.event));
});

// A rule that ran out of time would count as "not broken": the guardrail would fail open.
test('guardrail: a rule that backtracking would make slow still reports the violation (linear-time engine)', async () => {
  const clock = new FakeClock();
  const events = createFakeEvents(clock);
  const reporter = createCauseReporter({
    clock,
    events: events.service,
    outputRules: [{ name: 'slow_rule', regex: 'a.*a.*a.*a.*b|danger' }],
  });
  const [violation] = await reporter.reportOutput(scope, 'a'.repeat(4000) + ' danger');
  assert.is(violation?.event.type, 'guardrail:violation');
  assert.equal((events.emits[0]!.content as { rules: string[] }).rules, ['slow_rule']);
});

test.run();
