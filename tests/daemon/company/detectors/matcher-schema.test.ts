import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseMatcher } from '../../../../daemon/company/detectors/matcher-schema.js';

const reason = (input: unknown) => {
  const r = parseMatcher(input);
  assert.is(r.ok, false, JSON.stringify(input));
  return (r as { reason: string }).reason;
};

test('the three kinds are accepted', () => {
  assert.equal(parseMatcher({ kind: 'exact', agent_id: 'ag_1' }), {
    ok: true,
    matcher: { kind: 'exact', agent_id: 'ag_1' },
  });
  assert.ok(parseMatcher({ kind: 'predicated', field: 'output.text', regex: 'rm -rf', flags: 'i' }).ok);
  assert.ok(parseMatcher({ kind: 'window', count: 3, within_ms: 60_000, group_by: 'agent', cooldown_ms: 300_000 }).ok);
  assert.ok(parseMatcher({ kind: 'window', count: 3, within_ms: 60_000 }).ok);
});

test('bad matchers get a reason naming the field', () => {
  assert.match(reason({ kind: 'sometimes' }), 'matcher.kind');
  assert.match(reason({ agent_id: 'x' }), "matcher.kind: must be 'exact', 'predicated' or 'window'");
  assert.match(reason({ kind: 'exact' }), 'matcher.agent_id');
  assert.match(reason({ kind: 'exact', agent_id: 'a', extra: 1 }), 'matcher');
  assert.match(reason({ kind: 'predicated', field: 'text', regex: 'a(?=b)' }), 'matcher.regex: lookahead');
  assert.match(reason({ kind: 'predicated', field: '__proto__.x', regex: 'a' }), 'matcher.field');
  assert.match(reason({ kind: 'predicated', field: 'a..b', regex: 'a' }), 'matcher.field');
  assert.match(reason({ kind: 'predicated', field: 'text', regex: 'a', flags: 'g' }), 'matcher.regex: flags');
  assert.match(reason({ kind: 'window', count: 1, within_ms: 60_000 }), 'matcher.count');
  assert.match(reason({ kind: 'window', count: 5_000, within_ms: 60_000 }), 'matcher.count');
  assert.match(reason({ kind: 'window', count: 3, within_ms: 10 }), 'matcher.within_ms');
  assert.match(reason({ kind: 'window', count: 3, within_ms: 60_000, group_by: 'quest' }), 'matcher.group_by');
  assert.match(reason('exact'), 'matcher');
});

test.run();
