import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatScheduledRows } from '../../../cli/format/scheduled-events.js';

const now = Date.parse('2026-01-15T12:02:00Z');

test('rows show status, schedule, zone, next run and the tool calls; only schedules are listed', () => {
  const lines = formatScheduledRows(
    [
      { id: 'cfg_1', type: 'schedule:*/5 * * * *', status: 'active', tool_calls: [{ tool: 'quests.create' }] },
      {
        id: 'cfg_2',
        type: 'schedule:0 9 * * *',
        status: 'paused',
        timezone: 'Europe/Berlin',
        tool_calls: [{ tool: 'quests.create' }, { tool: 'message_to' }],
      },
      { id: 'cfg_3', type: 'session:start', status: 'active' },
      { id: 'cfg_4', type: 'schedule:@daily', status: 'active', next_runs: ['2026-01-16T00:00:00.000Z'] },
    ],
    now,
  );
  assert.is(lines.length, 4);
  assert.match(lines[0]!, /^ID\s+STATUS\s+SCHEDULE\s+TIMEZONE\s+NEXT RUN\s+DOES$/);
  assert.match(lines[1]!, /cfg_1\s+active\s+\*\/5 \* \* \* \*\s+UTC\s+2026-01-15T12:05:00Z \(in 3m\)\s+quests.create/);
  assert.match(
    lines[2]!,
    /cfg_2\s+paused\s+0 9 \* \* \*\s+Europe\/Berlin\s+2026-01-16T08:00:00Z \(in 19h 58m\), if enabled\s+quests.create, message_to/,
  );
  assert.match(lines[3]!, /cfg_4\s+active\s+@daily\s+UTC\s+2026-01-16T00:00:00Z \(in 11h 58m\)/);
  assert.not.ok(lines.join('\n').includes('session:start'));
});

test('armed, invalid and empty listings', () => {
  assert.match(formatScheduledRows([{ id: 'c', type: 'schedule:@hourly', status: 'armed' }], now)[1]!, 'never (armed)');
  assert.match(
    formatScheduledRows([{ id: 'c', type: 'schedule:* * *', status: 'active' }], now)[1]!,
    'invalid: a cron expression has exactly 5 fields',
  );
  assert.equal(formatScheduledRows([], now), ['no scheduled events']);
});

test.run();
