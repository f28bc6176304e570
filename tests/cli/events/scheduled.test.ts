import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCreate } from '../../../cli/commands/events/create.js';
import { runList } from '../../../cli/commands/events/list.js';
import { runTrace } from '../../../cli/commands/events/trace.js';
import { ApiRequestError } from '../../../cli/errors.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createRuntimeApi } from '../../helpers/runtime-api.js';
import { createRuntimeTestApp } from '../../helpers/runtime-app.js';

async function setup(json = false) {
  const t = await createRuntimeTestApp();
  const { api, calls } = createRuntimeApi(t);
  return { t, cli: createFakeCli({ api, json }), calls };
}

test('events create with a schedule and --timezone prints the next runs, in UTC and local time', async () => {
  const { cli, calls } = await setup();
  await runCreate(
    {
      company: 'acme',
      pattern: 'schedule:0 9 * * MON-FRI',
      timezone: 'Europe/Berlin',
      toolCalls: ['{"tool":"quests.create","args":{"title":"Triage"}}'],
    },
    cli.ctx,
  );
  assert.is((calls.find((c) => c.method === 'POST')!.body as { timezone: string }).timezone, 'Europe/Berlin');
  const out = cli.stdout();
  assert.match(out, /^created cev_\S+ {2}schedule:0 9 \* \* MON-FRI {2}\(active\)/);
  assert.match(out, /next runs \(Europe\/Berlin\):/);
  assert.match(out, /2026-01-16T08:00:00\.000Z {2}2026-01-16 09:00 Europe\/Berlin/);
  assert.is(out.trim().split('\n').length, 7);
});

test('events create passes --matcher, and the daemon refuses an unsafe regex or a bad cron with the reason', async () => {
  const { t, cli } = await setup();
  await runCreate(
    {
      company: 'acme',
      pattern: 'guardrail:violation',
      matcher: '{"kind":"window","count":2,"within_ms":60000}',
      toolCalls: [],
    },
    cli.ctx,
  );
  assert.equal((await t.services.events.listConfigured())[0]!.matcher, { kind: 'window', count: 2, within_ms: 60000 });
  const unsafe = await runCreate(
    {
      company: 'acme',
      pattern: 'shell:command_failed',
      matcher: '{"kind":"predicated","field":"command","regex":"(a)\\\\1"}',
      toolCalls: [],
    },
    cli.ctx,
  ).catch((e) => e);
  assert.instance(unsafe, ApiRequestError);
  assert.is(unsafe.code, 'invalid_matcher');
  const cron = await runCreate({ company: 'acme', pattern: 'schedule:99 * * * *', toolCalls: [] }, cli.ctx).catch(
    (e) => e,
  );
  assert.is(cron.code, 'invalid_schedule');
});

test('events list --scheduled shows status and next run of the schedule: events only; --json the rows', async () => {
  const { t, cli } = await setup();
  await t.services.events.create({
    type: 'schedule:*/5 * * * *',
    tool_calls: [{ tool: 'quests.create', args: { title: 'Poll' } }],
  });
  await t.services.events.create({ type: 'schedule:@daily', tool_calls: [], enabled: false });
  await t.services.events.create({ type: 'session:start', tool_calls: [] });
  await runList({ company: 'acme', scheduled: true }, cli.ctx);
  const lines = cli.stdout().trim().split('\n');
  assert.match(lines[0]!, /^ID\s+STATUS\s+SCHEDULE\s+TIMEZONE\s+NEXT RUN\s+POLICY\s+DOES/);
  assert.is(lines.length, 3);
  assert.match(lines[1]!, /active\s+\*\/5 \* \* \* \*\s+UTC\s+2026-01-15T12:05:00Z.*quests\.create/);
  assert.match(lines[2]!, /paused\s+@daily\s+UTC\s+2026-01-16T00:00:00Z.*if enabled/);
  const json = await setup(true);
  await json.t.services.events.create({ type: 'schedule:@hourly', tool_calls: [] });
  await runList({ company: 'acme', scheduled: true }, json.cli.ctx);
  const rows = JSON.parse(json.cli.stdout());
  assert.is(rows.length, 1);
  assert.is(rows[0].next_runs.length, 5);
});

test('create passes --retry and --schedule-policy; list --scheduled shows them; trace shows attempts', async () => {
  const { t, cli } = await setup();
  await runCreate(
    {
      company: 'acme',
      pattern: 'schedule:*/5 * * * *',
      retry: '{"max_attempts":3,"backoff":{"initial_ms":1000}}',
      schedulePolicy: '{"catch_up":"skip","overlap":"skip"}',
      toolCalls: ['{"tool":"message_to","args":{"to":"reviewer","text":"tick"}}'],
    },
    cli.ctx,
  );
  const bad = await runCreate(
    { company: 'acme', pattern: 'schedule:@hourly', schedulePolicy: '{"overlap":"never"}', toolCalls: [] },
    cli.ctx,
  ).catch((e) => e);
  assert.instance(bad, ApiRequestError);
  assert.is(bad.code, 'invalid_schedule');
  await runList({ company: 'acme', configured: true, scheduled: true }, cli.ctx);
  assert.match(cli.stdout(), /catch-up skip, overlap skip\s+message_to \(retry ×3\)/);
  const [cfg] = await t.services.events.listConfigured();
  const { event } = await t.services.events.fire(cfg!.id);
  await runTrace(event.id, { company: 'acme' }, cli.ctx);
  assert.match(
    cli.stdout(),
    /fired message_to attempt 1 \[FAIL\] {2}.*reviewer.* {2}→ next attempt 2026-01-15T12:00:01\.000Z {2}\(cev_/,
  );
});

test.run();
