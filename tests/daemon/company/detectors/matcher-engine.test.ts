import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileLinear, createBoundedRegex } from '../../../../daemon/company/detectors/bounded-regex.js';
import { createMatcherEngine } from '../../../../daemon/company/detectors/matcher-engine.js';
import { createWindowCounter } from '../../../../daemon/company/detectors/window-counter.js';
import type { ConfiguredEvent, EventRow, Matcher } from '../../../../daemon/company/company-services.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

const cfg = (type: string, matcher: Matcher | null, id = 'cfg_1'): ConfiguredEvent => ({
  id,
  type,
  tool_calls: [],
  agent_id: null,
  session_id: null,
  quest_id: null,
  enabled: true,
  status: 'active',
  matcher,
  created_at: '2026-01-01T00:00:00.000Z',
});
let n = 0;
const ev = (type: string, over: Partial<EventRow> = {}): EventRow => ({
  id: `ev_${++n}`,
  type,
  agent_id: null,
  session_id: null,
  quest_id: null,
  content: {},
  created_at: '',
  causation_id: null,
  correlation_id: 'x',
  source: 'emitter',
  ...over,
});

test('no matcher: the pattern alone decides', async () => {
  const engine = createMatcherEngine({ clock: new FakeClock() });
  assert.ok(await engine.allows(cfg('shell:command_failed', null), ev('shell:command_failed')));
  assert.not.ok(await engine.allows(cfg('shell:command_failed', null), ev('shell:other')));
});

test('plugs in as the dispatcher hook: supports every kind, checks at creation', async () => {
  const engine = createMatcherEngine({ clock: new FakeClock() });
  assert.ok(['exact', 'predicated', 'window'].every((k) => engine.supports(k as 'exact')));
  assert.ok(engine.check({ kind: 'window', count: 2, within_ms: 60_000 }).ok);
  assert.not.ok(engine.check({ kind: 'predicated', field: 'text', regex: '(a)\\1' }).ok);
});

test('exact: the pattern for one agent only', async () => {
  const engine = createMatcherEngine({ clock: new FakeClock() });
  const c = cfg('loop:detected', { kind: 'exact', agent_id: 'ag_1' });
  assert.ok(await engine.allows(c, ev('loop:detected', { agent_id: 'ag_1' })));
  assert.not.ok(await engine.allows(c, ev('loop:detected', { agent_id: 'ag_2' })));
  assert.not.ok(await engine.allows(c, ev('loop:detected')));
});

test('predicated: a regex over a dotted content field', async () => {
  const engine = createMatcherEngine({ clock: new FakeClock() });
  const c = cfg('guardrail:violation', { kind: 'predicated', field: 'output.text', regex: 'rm\\s+-rf', flags: 'i' });
  assert.ok(await engine.allows(c, ev('guardrail:violation', { content: { output: { text: 'then RM  -RF /' } } })));
  assert.not.ok(await engine.allows(c, ev('guardrail:violation', { content: { output: { text: 'ls -la' } } })));
  assert.not.ok(await engine.allows(c, ev('guardrail:violation', { content: { output: 'flat' } })), 'missing field');
  assert.not.ok(await engine.allows(c, ev('guardrail:violation', { content: null })));
  const num = cfg('shell:command_failed', { kind: 'predicated', field: 'exit_code', regex: '^(1|2)$' });
  assert.ok(
    await engine.allows(num, ev('shell:command_failed', { content: { exit_code: 2 } })),
    'numbers are spelled out',
  );
  const arr = cfg('graph_guardrail:high_impact', { kind: 'predicated', field: 'files.0', regex: '^migrations/' });
  assert.ok(
    await engine.allows(arr, ev('graph_guardrail:high_impact', { content: { files: ['migrations/001.sql'] } })),
  );
  const proto = cfg('guardrail:violation', { kind: 'predicated', field: 'toString', regex: 'function' });
  assert.not.ok(
    await engine.allows(proto, ev('guardrail:violation', { content: {} })),
    'inherited properties are not fields',
  );
});

test('predicated: the whole field is examined, not only its first 4 KiB', async () => {
  const engine = createMatcherEngine({ clock: new FakeClock() });
  const c = cfg('guardrail:violation', { kind: 'predicated', field: 'text', regex: 'SECRET' });
  assert.ok(await engine.allows(c, ev('guardrail:violation', { content: { text: 'x'.repeat(4000) + 'SECRET' } })));
  assert.ok(await engine.allows(c, ev('guardrail:violation', { content: { text: 'x'.repeat(5000) + 'SECRET' } })));
  const far = 'x'.repeat(300_000) + 'SECRET' + 'x'.repeat(1_000);
  assert.ok(await engine.allows(c, ev('guardrail:violation', { content: { text: far } })));
  assert.not.ok(await engine.allows(c, ev('guardrail:violation', { content: { text: 'x'.repeat(300_000) } })));
});

// A match that ran out of time would count as "no match", so a guardrail would fail open.
test('predicated: a polynomial pattern on a long text still gives the right answer (linear-time engine, no time-out)', async () => {
  const engine = createMatcherEngine({ clock: new FakeClock(), regex: createBoundedRegex() });
  const poly = cfg('guardrail:violation', { kind: 'predicated', field: 'text', regex: 'a.*a.*a.*a.*b|danger' });
  assert.ok(
    await engine.allows(poly, ev('guardrail:violation', { content: { text: 'a'.repeat(20_000) + ' danger' } })),
  );
  assert.not.ok(await engine.allows(poly, ev('guardrail:violation', { content: { text: 'a'.repeat(20_000) } })));
  const nested = cfg('guardrail:violation', { kind: 'predicated', field: 'text', regex: '^(a+)+$' });
  assert.not.ok(await engine.allows(nested, ev('guardrail:violation', { content: { text: 'a'.repeat(40) + 'b' } })));
  assert.ok(await engine.allows(nested, ev('guardrail:violation', { content: { text: 'a'.repeat(40) } })));
});

test('predicated: a stored matcher that fails the screen never matches', async () => {
  const engine = createMatcherEngine({ clock: new FakeClock() });
  const c = cfg('guardrail:violation', { kind: 'predicated', field: 'text', regex: '(a)\\1' });
  assert.not.ok(await engine.allows(c, ev('guardrail:violation', { content: { text: 'aaa' } })));
});

test('a pattern is compiled once per process and shared: each test makes its own matcher', () => {
  const a = compileLinear('\\bdrop\\s+table\\b', 'i');
  assert.is(compileLinear('\\bdrop\\s+table\\b', 'i'), a, 'every Company runtime gets the same compiled rule');
  assert.is.not(compileLinear('\\bdrop\\s+table\\b', ''), a, 'flags are part of the pattern');
  // Shared, it still answers each text on its own, however the tests interleave.
  const regex = createBoundedRegex();
  const results = ['DROP TABLE users', 'select 1', 'then drop   table x', ''].map((text) => regex.test(a, text));
  assert.equal(results, [true, false, true, false]);
  assert.is(compileLinear('select', '').matcher('x select y').find(), true);
});

test('window: the N-th event within T fires once, then the cooldown stops re-firing', async () => {
  const clock = new FakeClock();
  const engine = createMatcherEngine({ clock });
  const c = cfg('ideas:threshold_reached', { kind: 'window', count: 3, within_ms: 60_000, cooldown_ms: 300_000 });
  const hits = async (n: number) => {
    const out: boolean[] = [];
    for (let i = 0; i < n; i++) out.push(await engine.allows(c, ev('ideas:threshold_reached')));
    return out;
  };
  assert.equal(await hits(3), [false, false, true]);
  clock.advance(10_000);
  assert.equal(await hits(4), [false, false, false, false], 'cooling down');
  assert.is(await engine.why(c, ev('ideas:threshold_reached')), 'cooldown');
  clock.advance(300_000);
  assert.equal(await hits(2), [false, false]);
  assert.is(await engine.why(c, ev('ideas:threshold_reached')), 'matcher');
  clock.advance(61_000);
  assert.equal(await hits(2), [false, false], 'the older one left the window');
  assert.equal(await hits(1), [true]);
});

test('window: grouped by agent or session counts each group apart', async () => {
  const clock = new FakeClock();
  const engine = createMatcherEngine({ clock });
  const c = cfg('loop:detected', { kind: 'window', count: 2, within_ms: 60_000, group_by: 'agent' });
  assert.not.ok(await engine.allows(c, ev('loop:detected', { agent_id: 'a' })));
  assert.not.ok(await engine.allows(c, ev('loop:detected', { agent_id: 'b' })));
  assert.ok(await engine.allows(c, ev('loop:detected', { agent_id: 'a' })));
  assert.ok(await engine.allows(c, ev('loop:detected', { agent_id: 'b' })));
  const s = cfg('loop:detected', { kind: 'window', count: 2, within_ms: 60_000, group_by: 'session' }, 'cfg_2');
  assert.not.ok(await engine.allows(s, ev('loop:detected', { session_id: 's1', agent_id: 'a' })));
  assert.not.ok(await engine.allows(s, ev('loop:detected', { session_id: 's2', agent_id: 'a' })));
});

test('window state is bounded: past the cap the least recently used groups are forgotten', async () => {
  const windows = createWindowCounter({ maxEntries: 50 });
  const rule = { count: 5, within_ms: 60_000, cooldown_ms: 0 };
  for (let i = 0; i < 1_000; i++) windows.hit(`k${i}`, 1_000, rule);
  assert.ok(windows.size() <= 50, `holds ${windows.size()}`);
  for (let i = 0; i < 4; i++) windows.hit('hot', 2_000 + i, rule);
  for (let i = 0; i < 40; i++) windows.hit(`cold${i}`, 3_000, rule);
  assert.ok(windows.hit('hot', 4_000, rule), 'a recently used group kept its count');
  windows.forget('k');
  assert.ok(windows.size() <= 50);
});

test.run();
