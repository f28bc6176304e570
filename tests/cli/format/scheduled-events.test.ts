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
  assert.match(lines[0]!, /^ID\s+STATUS\s+SCHEDULE\s+TIMEZONE\s+NEXT RUN\s+POLICY\s+DOES$/);
  assert.match(
    lines[1]!,
    /cfg_1\s+active\s+\*\/5 \* \* \* \*\s+UTC\s+2026-01-15T12:05:00Z \(in 3m\)\s+-\s+quests.create/,
  );
  assert.match(
    lines[2]!,
    /cfg_2\s+paused\s+0 9 \* \* \*\s+Europe\/Berlin\s+2026-01-16T08:00:00Z \(in 19h 58m\), if enabled\s+-\s+quests.create, message_to/,
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

test('each schedule shows its policy and retry; an ended one says so', () => {
  const lines = formatScheduledRows(
    [
      {
        id: 'cfg_1',
        type: 'schedule:*/5 * * * *',
        status: 'active',
        tool_calls: [{ tool: 'message_to' }],
        retry: { max_attempts: 3, backoff: { initial_ms: 10_000, max_ms: 600_000, jitter: 'full' } },
        schedule_policy: {
          catch_up: 'all',
          max_catch_up: 5,
          overlap: 'skip',
          start_at: '2026-01-15T12:00:00.000Z',
          end_at: '2026-02-01T00:00:00.000Z',
        },
      },
      {
        id: 'cfg_2',
        type: 'schedule:@hourly',
        status: 'active',
        next_runs: [],
        schedule_policy: {
          catch_up: 'latest',
          max_catch_up: 100,
          overlap: 'allow',
          start_at: null,
          end_at: '2026-01-15T12:00:00.000Z',
        },
      },
    ],
    now,
  );
  assert.match(lines[0]!, /NEXT RUN\s+POLICY\s+DOES$/);
  assert.match(
    lines[1]!,
    /cfg_1\s+active\s+\*\/5 \* \* \* \*\s+UTC\s+2026-01-15T12:05:00Z \(in 3m\)\s+catch-up all ≤5, overlap skip, from 2026-01-15T12:00Z, until 2026-02-01T00:00Z\s+message_to \(retry ×3\)$/,
  );
  assert.match(
    lines[2]!,
    /none \(ended 2026-01-15T12:00Z\)\s+catch-up latest, overlap allow, until 2026-01-15T12:00Z$/,
  );
});

test.run();
