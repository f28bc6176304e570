import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkEmitterInput, nextRunsOf } from '../../../../daemon/company/bus/emitter-input.js';

test('schedules: valid ones pass with their zone, invalid ones get invalid_schedule', () => {
  assert.equal(checkEmitterInput({ type: 'schedule:@daily', timezone: 'Europe/Berlin' }), {
    ok: true,
    matcher: null,
    timezone: 'Europe/Berlin',
  });
  const bad = checkEmitterInput({ type: 'schedule:* * *' });
  assert.equal(bad.ok ? '' : bad.code, 'invalid_schedule');
  const zone = checkEmitterInput({ type: 'session:start', timezone: 'UTC' });
  assert.match(zone.ok ? '' : zone.message, 'only to');
  const matcher = checkEmitterInput({ type: 'schedule:@daily', matcher: { kind: 'exact', agent_id: 'a' } });
  assert.equal(matcher.ok ? '' : matcher.code, 'invalid_matcher');
});

test('matchers: parsed, or refused with invalid_matcher and the reason', () => {
  assert.equal(checkEmitterInput({ type: 'loop:detected', matcher: { kind: 'exact', agent_id: 'a' } }), {
    ok: true,
    matcher: { kind: 'exact', agent_id: 'a' },
    timezone: null,
  });
  const bad = checkEmitterInput({
    type: 'guardrail:violation',
    matcher: { kind: 'predicated', field: 'text', regex: '(?<!a)b' },
  });
  assert.equal(bad.ok ? [] : [bad.code, bad.message.slice(0, 14)], ['invalid_matcher', 'matcher.regex:']);
});

test('next runs only for schedules', () => {
  assert.is(nextRunsOf({ type: 'schedule:@hourly' }, Date.parse('2026-01-15T12:30:00Z')).length, 5);
  assert.equal(nextRunsOf({ type: 'session:start' }, 0), []);
});

test.run();
