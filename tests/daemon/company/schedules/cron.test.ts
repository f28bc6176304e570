import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nextRuns, parseSchedule, timezoneProblem } from '../../../../shared/cron.js';

const reasonOf = (pattern: string, tz?: string) => {
  const r = parseSchedule(pattern, tz);
  assert.is(r.ok, false, `${pattern} should be refused`);
  return (r as { reason: string }).reason;
};

test('accepts 5-field expressions and the nicknames, UTC by default', () => {
  const r = parseSchedule('schedule:*/5 * * * *');
  assert.ok(r.ok);
  if (r.ok)
    assert.equal(r.schedule, {
      pattern: 'schedule:*/5 * * * *',
      expression: '*/5 * * * *',
      fields: '*/5 * * * *',
      timezone: 'UTC',
    });
  for (const name of ['@hourly', '@daily', '@weekly', '@monthly', '@yearly', '@annually', '@DAILY'])
    assert.ok(parseSchedule(`schedule:${name}`).ok, name);
  assert.ok(parseSchedule('schedule:0 9 * * MON-FRI', 'Europe/Berlin').ok);
  assert.ok(parseSchedule('schedule:0 0 L * *').ok);
  assert.ok(parseSchedule('schedule:  15 3 * * 1  ').ok, 'surrounding spaces are fine');
});

test('counts the fields itself: short, seconds and year forms are refused', () => {
  assert.match(reasonOf('schedule:* * *'), 'exactly 5 fields');
  assert.match(reasonOf('schedule:* * *'), 'got 3');
  assert.match(reasonOf('schedule:0 */5 * * * *'), 'seconds');
  assert.match(reasonOf('schedule:0 0 12 * * ? 2030'), 'got 7');
  assert.match(reasonOf('schedule:'), 'missing cron expression');
});

test('a bad field is named with what is wrong', () => {
  assert.match(reasonOf('schedule:61 * * * *'), "minute field '61'");
  assert.match(reasonOf('schedule:61 * * * *'), '0-59');
  assert.match(reasonOf('schedule:0 25 * * *'), "hour field '25'");
  assert.match(reasonOf('schedule:0 0 32 * *'), 'day of month field');
  assert.match(reasonOf('schedule:0 0 * 13 *'), 'month field');
  assert.match(reasonOf('schedule:0 0 * * 8'), 'day of week field');
  assert.match(reasonOf('schedule:a * * * *'), 'minute field');
  assert.match(reasonOf('schedule:5-2 * * * *'), 'Invalid range');
  assert.match(reasonOf('schedule:H * * * *'), 'hashed');
  assert.match(reasonOf('schedule:0 0 30 2 *'), 'never occurs');
});

test('@reboot and unknown names are refused with the reason', () => {
  assert.match(reasonOf('schedule:@reboot'), 'restart is not a schedule');
  assert.match(reasonOf('schedule:@often'), 'unknown schedule name');
  assert.match(reasonOf('session:start'), "starts with 'schedule:'");
});

test('timezones are IANA names checked through Intl', () => {
  assert.is(timezoneProblem('Europe/Berlin'), null);
  assert.is(timezoneProblem('UTC'), null);
  assert.match(timezoneProblem('Mars/Olympus')!, 'unknown timezone');
  assert.match(reasonOf('schedule:@daily', 'Not/AZone'), 'unknown timezone');
  assert.match(reasonOf('schedule:@daily', ''), 'IANA');
});

test('next runs: five, strictly after the start, in UTC', () => {
  assert.equal(nextRuns('schedule:*/5 * * * *', null, Date.parse('2026-01-15T12:02:30Z')), [
    '2026-01-15T12:05:00.000Z',
    '2026-01-15T12:10:00.000Z',
    '2026-01-15T12:15:00.000Z',
    '2026-01-15T12:20:00.000Z',
    '2026-01-15T12:25:00.000Z',
  ]);
  assert.equal(nextRuns('schedule:@daily', 'UTC', Date.parse('2026-01-15T00:00:00Z'), 2), [
    '2026-01-16T00:00:00.000Z',
    '2026-01-17T00:00:00.000Z',
  ]);
  assert.equal(nextRuns('schedule:nonsense', null, 0), []);
});

test('Europe/Berlin spring-forward: 02:30 does not exist on 29 March, the run moves to 03:30 CEST', () => {
  assert.equal(nextRuns('schedule:30 2 * * *', 'Europe/Berlin', Date.parse('2026-03-27T12:00:00Z'), 3), [
    '2026-03-28T01:30:00.000Z', // 02:30 CET (+1)
    '2026-03-29T01:30:00.000Z', // 03:30 CEST: the skipped local time runs once, an hour later
    '2026-03-30T00:30:00.000Z', // 02:30 CEST (+2)
  ]);
  // A 09:00 job keeps its local time across the change: 08:00Z before, 07:00Z after.
  assert.equal(nextRuns('schedule:0 9 * * *', 'Europe/Berlin', Date.parse('2026-03-28T00:00:00Z'), 2), [
    '2026-03-28T08:00:00.000Z',
    '2026-03-29T07:00:00.000Z',
  ]);
});

test('Europe/Berlin fall-back: 02:30 happens twice on 25 October, the daily job runs once', () => {
  assert.equal(nextRuns('schedule:30 2 * * *', 'Europe/Berlin', Date.parse('2026-10-24T12:00:00Z'), 2), [
    '2026-10-25T00:30:00.000Z', // the first 02:30 (CEST); the repeated 02:30 CET is not a second run
    '2026-10-26T01:30:00.000Z',
  ]);
});

test('America/New_York spring-forward: every-15-minutes jumps from 01:45 EST to 03:00 EDT', () => {
  assert.equal(nextRuns('schedule:*/15 * * * *', 'America/New_York', Date.parse('2026-03-08T06:30:00Z'), 3), [
    '2026-03-08T06:45:00.000Z',
    '2026-03-08T07:00:00.000Z',
    '2026-03-08T07:15:00.000Z',
  ]);
});

test.run();
