import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openEventLog, type NewEventRow } from '../../../../daemon/store/event-log/index.js';
import type { EventOrigin } from '../../../../shared/event-row.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const ORIGIN: EventOrigin = {
  action: 'mcp.tools_call',
  target: 'events.trigger',
  request_id: 'req_1',
  actor: {
    type: 'oauth',
    user_id: 'usr_1',
    key_id: null,
    client_id: 'https://app.example/"content":{}',
    grant_id: 'grt_1',
  },
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
};

const event = (n: number, extra: Partial<NewEventRow> = {}): NewEventRow => ({
  type: 'test:n',
  agent_id: `a${n % 2}`,
  session_id: null,
  quest_id: null,
  causation_id: null,
  content: { n, content: '"content":' },
  ...extra,
});

test('the call an event came from is kept on disk, read back after reopening, and the indexes still hold', async () => {
  const dir = tempDir('svc-events-origin');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock });
  const plain = await log.append(event(0));
  const called = await log.append(event(1, { origin: ORIGIN }));
  const child = await log.append(event(2, { origin: ORIGIN, causation_id: called.id, correlation_id: called.id }));
  assert.is(plain.origin, undefined, 'an event no call set off has no origin');
  await log.close();
  log = await openEventLog(dir, { clock });
  assert.equal(log.recovery, []);
  assert.equal((await log.get(called.id))?.origin, ORIGIN);
  assert.equal((await log.query({ agent_id: 'a1' })).events, [called], 'indexed from a line with an origin');
  assert.equal((await log.query({ causation_id: called.id })).events, [child]);
  assert.is((await log.get(plain.id))?.origin, undefined);
  await log.close();
});

test('a damaged origin loses the origin, not the event', async () => {
  const dir = tempDir('svc-events-origin-bad');
  const clock = new FakeClock();
  let log = await openEventLog(dir, { clock });
  const called = await log.append(event(1, { origin: ORIGIN }));
  await log.close();
  const file = readdirSync(dir, { recursive: true })
    .map(String)
    .find((f) => f.endsWith('.jsonl'))!;
  const text = readFileSync(join(dir, file), 'utf8');
  writeFileSync(join(dir, file), text.replace('"action":"mcp.tools_call"', '"action":42'));
  log = await openEventLog(dir, { clock });
  const back = await log.get(called.id);
  assert.ok(back, 'the event is still there');
  assert.is(back!.origin, undefined);
  assert.equal(back!.content, called.content);
  await log.close();
});

test.run();
