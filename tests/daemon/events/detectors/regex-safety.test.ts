import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { regexProblem } from '../../../../daemon/events/detectors/regex-safety.js';

test('ordinary guardrail expressions pass', () => {
  for (const re of ['rm -rf', 'DROP\\s+TABLE', '^error:', '(foo|bar)+', 'a.*b', '\\d{3}-\\d{4}', '[a-z]+@[a-z]+\\.com', '(ab?)+', '(?:x|y)*z', '(?<word>\\w+) done', 'x{2,5}', '\\p{L}+']) {
    assert.is(regexProblem(re, re.includes('\\p') ? 'u' : 'i'), null, re);
  }
});

test('nested repetition is refused', () => {
  for (const re of ['(a+)+', '(a*)*$', '(\\w+\\s?)*', '((ab)+c)*', '(a{2,})+', '(?:x+y)+', '(a+){2,}']) {
    assert.match(regexProblem(re) ?? '', 'nested repetition', re);
  }
});

test('overlapping alternatives under a repeat are refused', () => {
  for (const re of ['(a|ab)*', '(\\w|x)+', '(.|a)*', '(a|)+', '(x|y|x)+']) {
    assert.match(regexProblem(re) ?? '', 'alternatives', re);
  }
  assert.is(regexProblem('(a|ab)'), null, 'not repeated: fine');
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
