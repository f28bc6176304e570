import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBoundedRegex } from '../../../../daemon/company/detectors/bounded-regex.js';
import { createMatcherEngine } from '../../../../daemon/company/detectors/matcher-engine.js';
import { defaultEmitters } from '../../../../daemon/company/bus/emitters.js';
import { createMemoryEventLog, type EventLog } from '../../../../daemon/store/event-log/index.js';
import { createEventsService } from '../../../../daemon/company/bus/events-service.js';
import { createToolRegistry } from '../../../../daemon/company/bus/tools.js';
import { createIdGenerator } from '../../../../daemon/ids.js';
import { cryptoRandom } from '../../../../daemon/random.js';
import type { RuntimeCore } from '../../../../daemon/company/core.js';
import type { CompanyServices, EventsService } from '../../../../daemon/company/company-services.js';
import type { RuntimeStores } from '../../../../daemon/store/runtime-types.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { DEFAULT_POLICY } from '../../../../daemon/company/schedules/scheduler.js';
import { callMcpTool, createMcpTestApp } from '../../../helpers/mcp-app.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../helpers/runtime-app.js';
import { runtimeStoreImplementations } from '../../../helpers/store-implementations.js';

/** The events bus alone over one implementation of the stores (no configured events: emit and log only). */
function eventsOver(stores: RuntimeStores, log: EventLog, clock: FakeClock): EventsService {
  const core: RuntimeCore = {
    company: { id: 'cmp_emit', name: 'emit', owner_id: 'usr_emit' },
    clock,
    ids: createIdGenerator(clock, cryptoRandom),
    stores,
    emit: (input) => events.emit(input),
  };
  const events = createEventsService({
    core,
    log,
    emitters: defaultEmitters,
    matcher: createMatcherEngine({ clock, regex: createBoundedRegex() }),
    tools: createToolRegistry(),
    services: {} as CompanyServices,
    maxDepth: 8,
    random: cryptoRandom,
    // No configured events here, so no retries: a timer that never fires keeps the process free to exit.
    retryTimer: { set: () => 0, clear: () => {} },
    schedulePolicy: DEFAULT_POLICY,
  });
  return events;
}

for (const [name, open] of Object.entries(runtimeStoreImplementations)) {
  test(`${name}: emit with an idempotency_key appends once within 24 h; a reopened store still answers the repeat`, async () => {
    const clock = new FakeClock();
    const { stores, reopen } = await open();
    const log = createMemoryEventLog({ clock });
    const events = eventsOver(stores, log, clock);
    const input = { type: 'shell:command_failed', content: { exit_code: 1 }, idempotency_key: 'harness-7' };
    const first = await events.emit(input);
    assert.is(first.replayed, undefined);
    const again = await events.emit(input);
    assert.equal(again, { ...first, replayed: true });
    assert.is((await events.list({ event_type: 'shell:command_failed' })).events.length, 1);
    // Another request under the same key is refused, never answered with the first event.
    const other = await events.emit({ ...input, content: { exit_code: 2 } }).catch((e) => e);
    assert.is(other.code, 'idempotency_key_reused');
    if (reopen) {
      const after = eventsOver(await reopen(), log, clock);
      assert.equal((await after.emit(input)).event.id, first.event.id);
      assert.is((await after.list({ event_type: 'shell:command_failed' })).events.length, 1);
    }
    clock.advance(24 * 3600_000 + 1);
    const current = reopen ? eventsOver(await reopen(), log, clock) : events;
    assert.is.not((await current.emit(input)).event.id, first.event.id);
  });
}

const post = (t: RuntimeTestApp, url: string, key: string | null, body: unknown) =>
  t.request({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(key && { 'idempotency-key': key }) },
    payload: JSON.stringify(body),
  });

test('HTTP: POST /api/detectors/report and /api/questions take an Idempotency-Key; a repeat emits nothing', async () => {
  const t = await createRuntimeTestApp();
  const agent = (await t.post('/api/agents', { name: 'Bob' })).body.agent;
  await t.post('/api/events', {
    type: 'shell:command_failed',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Fix' } }],
  });
  const report = { cause: 'command', agent_id: agent.id, command: 'npm test', exit_code: 1 };
  const first = await post(t, '/api/detectors/report', 'r-1', report);
  const again = await post(t, '/api/detectors/report', 'r-1', report);
  assert.is(again.status, 200);
  assert.equal(again.body, first.body);
  assert.is(again.headers['idempotent-replayed'], 'true');
  assert.is((await t.get('/api/events?event_type=shell:command_failed')).body.events.length, 1);
  assert.is((await t.get('/api/quests')).body.quests.length, 1);
  assert.is((await post(t, '/api/detectors/report', 'r-1', { ...report, exit_code: 2 })).status, 409);
  // Without a key every report emits.
  await post(t, '/api/detectors/report', null, report);
  assert.is((await t.get('/api/quests')).body.quests.length, 2);

  const ask = { agent_id: agent.id, question: 'Ship it?' };
  const asked = await post(t, '/api/questions', 'q-1', ask);
  assert.is(asked.status, 201);
  const askedAgain = await post(t, '/api/questions', 'q-1', ask);
  assert.is(askedAgain.status, 201);
  assert.equal(askedAgain.body, asked.body);
  assert.is((await t.get('/api/questions')).body.questions.length, 1);
  assert.is((await t.get('/api/events?event_type=question:asked')).body.events.length, 1);
  // The key belongs to its route: the same key on another route is a request of its own.
  assert.is((await post(t, '/api/events/trigger', 'q-1', { type: 'loop:detected' })).status, 200);
});

test('MCP: message_to takes idempotency_key; a repeat answers the first answer and starts no second turn', async () => {
  const t = await createMcpTestApp();
  const services = await t.services();
  const agent = await services.agents.create({ name: 'Ada', role: 'ops' });
  const call = (args: Record<string, unknown>) => callMcpTool(t, 'message_to', args);
  const first = await call({ to: 'ops', text: 'deploy done', idempotency_key: 'm-1' });
  assert.is(first.ok, true);
  const again = await call({ to: 'ops', text: 'deploy done', idempotency_key: 'm-1' });
  assert.equal(again, { ...first, replayed: true });
  const session = await services.sessions.get(first.session_id);
  assert.is(session?.transcript.length, 1);
  assert.is(
    (await services.events.list({ event_type: 'session:execution_start', agent_id: agent.id })).events.length,
    1,
  );
  const other = await call({ to: 'ops', text: 'something else', idempotency_key: 'm-1' });
  assert.match(other.error, /different request/);
});

test.run();
