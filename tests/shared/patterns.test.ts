import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KNOWN_PREFIXES, LIFECYCLE_PATTERNS, parsePattern, prefixOf } from '../../shared/patterns.js';

test('the eleven prefixes and nine lifecycle patterns of the spec', () => {
  assert.is(KNOWN_PREFIXES.length, 11);
  assert.is(LIFECYCLE_PATTERNS.length, 9);
  for (const p of LIFECYCLE_PATTERNS) assert.ok(parsePattern(p).ok, p);
});

test('a pattern splits into prefix and name; the name may hold colons', () => {
  assert.equal(parsePattern('context:budget:exceeded'), {
    ok: true,
    prefix: 'context',
    name: 'budget:exceeded',
    known: true,
  });
  assert.is(prefixOf('context:budget:exceeded'), 'context');
});

test('a dotted name is refused with an explanation', () => {
  const r = parsePattern('agent.spawned');
  assert.is(r.ok, false);
  if (!r.ok) {
    assert.is(r.problem, 'dotted');
    assert.match(r.message, /dotted names are not patterns/);
  }
});

test('an unknown but well-formed prefix is accepted and marked unknown (it is stored armed)', () => {
  assert.equal(parsePattern('deploy:done'), { ok: true, prefix: 'deploy', name: 'done', known: false });
  assert.equal(parsePattern('cron:tick'), { ok: true, prefix: 'cron', name: 'tick', known: false });
});

test('a malformed prefix, no prefix, no name and empty are refused', () => {
  const problem = (p: string) => {
    const r = parsePattern(p);
    return r.ok ? 'ok' : r.problem;
  };
  assert.is(problem('Session Start:x'), 'bad_prefix');
  assert.is(problem(':x'), 'bad_prefix');
  assert.is(problem('started'), 'no_prefix');
  assert.is(problem('session:'), 'no_name');
  assert.is(problem('  '), 'empty');
  assert.is(problem('session:has space'), 'bad_characters');
});

test('schedule accepts any non-empty expression structurally', () => {
  assert.ok(parsePattern('schedule:*/5 * * * *').ok);
  assert.ok(parsePattern('schedule:whatever').ok);
  assert.is(parsePattern('schedule: ').ok, false);
});

test.run();
