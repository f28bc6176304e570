import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { regexProblem } from '../../../../daemon/company/detectors/regex-safety.js';

test('ordinary guardrail expressions pass', () => {
  for (const re of [
    'rm -rf',
    'DROP\\s+TABLE',
    '^error:',
    '(foo|bar)+',
    'a.*b',
    '\\d{3}-\\d{4}',
    '[a-z]+@[a-z]+\\.com',
    '(ab?)+',
    '(?:x|y)*z',
    '(?<word>\\w+) done',
    'x{2,5}',
    '\\p{L}+',
  ]) {
    assert.is(regexProblem(re, re.includes('\\p') ? 'u' : 'i'), null, re);
  }
});

// Matching is linear-time: what backtracking would make dangerous is fine.
test('nested repetition and overlapping alternatives are accepted: the engine cannot backtrack', () => {
  for (const re of ['(a+)+', '(a*)*$', '(\\w+\\s?)*', '((ab)+c)*', '(a{2,})+', '(a|ab)*', '(\\w|x)+', '(.|a)*']) {
    assert.is(regexProblem(re), null, re);
  }
});

test('lookaround, which the linear-time engine cannot run, is refused with a clear reason', () => {
  for (const re of ['a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b'])
    assert.match(regexProblem(re) ?? '', 'lookahead and lookbehind', re);
  assert.match(regexProblem('\\cA') ?? '', 'linear-time', 'a control escape RE2 does not know');
  assert.is(regexProblem('\\u00e9t\\u00e9'), null, 'JavaScript \\u escapes are mapped');
});

test('backreferences, bad syntax, bad flags and overlong sources are refused', () => {
  assert.match(regexProblem('(a)\\1')!, 'backreferences');
  assert.match(regexProblem('(?<x>a)\\k<x>')!, 'backreferences');
  assert.match(regexProblem('(unclosed')!, 'invalid regular expression');
  assert.match(regexProblem('a', 'g')!, 'flags');
  assert.match(regexProblem('a', 'ii')!, 'flags');
  assert.match(regexProblem('a'.repeat(300))!, 'too long');
  assert.match(regexProblem('')!, 'empty');
  assert.is(regexProblem('[(a+)+]'), null, 'inside a class these are plain characters');
  assert.is(regexProblem('\\(a+\\)+'), null, 'escaped parentheses are not a group');
});

test.run();
