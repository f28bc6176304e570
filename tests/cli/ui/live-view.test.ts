import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildEventRow } from '../../../cli/ui/event-row.js';
import { createLiveFeed } from '../../../cli/ui/live-feed.js';
import { mountLiveView } from '../../../cli/ui/live-view.js';
import type { EventRow } from '../../../daemon/company/company-services.js';
import { createFakeTerminal } from '../../helpers/fake-terminal.js';

const event = (n: number, extra: Partial<EventRow> = {}): EventRow => ({
  id: `evt_${String(n).padStart(16, '0')}`,
  type: 'session:start',
  agent_id: null,
  session_id: null,
  quest_id: null,
  content: { n },
  created_at: `2026-11-22T21:00:${String(n % 60).padStart(2, '0')}.000Z`,
  causation_id: null,
  correlation_id: `evt_${String(n).padStart(16, '0')}`,
  source: 'emitter',
  ...extra,
});

function mount(rows = 20) {
  const term = createFakeTerminal({ columns: 120, rows });
  const feed = createLiveFeed(50);
  let quits = 0;
  let now = 1_000_000;
  const view = mountLiveView(
    {
      title: 'svc events tail · acme',
      details: ['http://127.0.0.1:7878 · following since 2026-11-22T21:00:00.000Z · times in UTC'],
      feed,
      color: false,
      now: () => now,
      onQuit: () => quits++,
    },
    term,
    { debug: true },
  );
  return { term, feed, view, quits: () => quits, setNow: (t: number) => (now = t) };
}

test('the view shows the header, the rows as they arrive and a status line', async () => {
  const { term, feed, view } = mount();
  await term.waitFor((_, f) => f.includes('connecting'));
  assert.match(term.lastFrame(), /^svc events tail · acme\n/);
  assert.match(term.lastFrame(), /following since 2026-11-22T21:00:00.000Z/);
  feed.setStatus({ state: 'connected' });
  feed.push(
    buildEventRow(
      event(1, {
        agent_id: 'agt_mhqz1x2k0000abc123',
        session_id: 'ses_mhqz1x2k0001xyz789',
        content: { title: 'Triage\ninbox', n: 2 },
      }),
    ),
  );
  feed.push(buildEventRow(event(2, { type: 'guardrail:tripped', content: 'too many calls' })));
  await term.waitFor((_, f) => f.includes('guardrail:tripped'));
  const lines = term.lastFrame().split('\n');
  assert.is(
    lines[2],
    '21:00:01  session:start  evt_0000000000000001  agent=agt_…abc123 session=ses_…xyz789  title=Triage inbox n=2',
    'the full event id, ready for svc events trace',
  );
  assert.is(lines[3], '21:00:02  guardrail:tripped  evt_0000000000000002  too many calls');
  assert.match(lines[4]!, /^● connected · 2 events · p pause · q quit$/);
  view.unmount();
  await view.closed;
});

test('only the newest rows that fit on the screen are shown', async () => {
  const { term, feed, view } = mount(8);
  for (let n = 1; n <= 30; n++) feed.push(buildEventRow(event(n)));
  await term.waitFor((_, f) => f.includes('30 events'));
  const rows = term
    .lastFrame()
    .split('\n')
    .filter((l) => l.includes('session:start'));
  // 8 lines of terminal: title, details, status and one spare line leave 4 rows.
  assert.equal(
    rows.map((r) => r.slice(0, 8)),
    ['21:00:27', '21:00:28', '21:00:29', '21:00:30'],
  );
  // A taller terminal shows more rows at once, without waiting for the next event.
  term.stdout.rows = 10;
  term.stdout.emit('resize');
  await term.waitFor((_, f) => f.includes('21:00:25'));
  assert.is(
    term
      .lastFrame()
      .split('\n')
      .filter((l) => l.includes('session:start')).length,
    6,
  );
  view.unmount();
  await view.closed;
});

test('p pauses the rows (counting what arrives) and resumes; the countdown shows while reconnecting', async () => {
  const { term, feed, view, setNow } = mount();
  feed.push(buildEventRow(event(1)));
  feed.setStatus({ state: 'reconnecting', until: 1_004_000, reason: 'connection lost (ECONNREFUSED)' });
  await term.waitFor((_, f) => f.includes('reconnecting in 4s (connection lost (ECONNREFUSED))'));
  term.press('p');
  await term.waitFor((_, f) => f.includes('paused (0 new)'));
  feed.push(buildEventRow(event(2)));
  feed.push(buildEventRow(event(3)));
  await term.waitFor((_, f) => f.includes('paused (2 new)'));
  assert.not.match(term.lastFrame(), /21:00:03/, 'the rows stay still while paused');
  assert.match(term.lastFrame(), /p resume · q quit/);
  setNow(1_004_000);
  term.press('p');
  await term.waitFor((_, f) => f.includes('21:00:03') && !f.includes('paused'));
  assert.match(term.lastFrame(), /reconnecting… \(connection lost/);
  view.unmount();
  await view.closed;
});

test('q quits: onQuit is called once and the view unmounts', async () => {
  const { term, view, quits } = mount();
  await term.waitFor((_, f) => f.includes('connecting'));
  term.press('q');
  await view.closed;
  assert.is(quits(), 1);
});

test('Ctrl-C quits like q (raw mode: Ink does not get the signal)', async () => {
  const { term, view, quits } = mount();
  await term.waitFor((_, f) => f.includes('connecting'));
  term.press('\x03');
  await view.closed;
  assert.is(quits(), 1);
});

test.run();
