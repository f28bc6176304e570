import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCreate } from '../../../cli/commands/events/create.js';
import { runTrigger } from '../../../cli/commands/events/trigger.js';
import { runFailures } from '../../../cli/commands/events/failures.js';
import { runReplay } from '../../../cli/commands/events/replay.js';
import { runPreview, timeFlag } from '../../../cli/commands/events/preview.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp-dir.js';
import { ApiRequestError, UsageError } from '../../../cli/errors.js';
import { createFakeCli, type FakeCli } from '../../helpers/cli.js';
import { createRuntimeApi } from '../../helpers/runtime-api.js';
import { createRuntimeTestApp } from '../../helpers/runtime-app.js';

/** A Company runtime (the fake clock at 2026-01-15T12:00Z) behind the CLI's API client. */
async function runtimeCli() {
  const t = await createRuntimeTestApp();
  return { t, cli: createFakeCli({ api: createRuntimeApi(t).api }) };
}

/** `svc events create` on loop:detected in Company acme, with these flags. */
const createLoopRule = (cli: FakeCli, flags: Omit<Parameters<typeof runCreate>[0], 'company' | 'pattern'>) =>
  runCreate({ company: 'acme', pattern: 'loop:detected', ...flags }, cli.ctx);

test('events create passes --debounce, --throttle and --concurrency; the daemon names a bad field', async () => {
  const { t, cli } = await runtimeCli();
  await createLoopRule(cli, {
    concurrency: '{"limit":1}',
    throttle: '{"key":"{{event.agent_id}}","limit":5,"period_ms":3600000}',
    debounce: '{"period_ms":1000}',
    toolCalls: ['{"tool":"quests.create","args":{"title":"Build"}}'],
  });
  const [cfg] = await t.services.events.listConfigured({ event_type: 'loop:detected' });
  assert.equal(
    [cfg!.concurrency, cfg!.throttle, cfg!.debounce],
    [{ limit: 1 }, { key: '{{event.agent_id}}', limit: 5, period_ms: 3_600_000 }, { period_ms: 1000 }],
  );
  const bad = await createLoopRule(cli, { throttle: '{"limit":0,"period_ms":1}', toolCalls: [] }).catch((e) => e);
  assert.instance(bad, ApiRequestError);
  assert.is(bad.code, 'invalid_flow_control');
  assert.match(bad.message, /throttle\.limit: must be at least 1/);
  const notJson = await createLoopRule(cli, { concurrency: '{limit:1}', toolCalls: [] }).catch((e) => e);
  assert.instance(notJson, UsageError);
  await t.close();
});

test('events trigger prints a firing held back by concurrency as not fired, with the reason', async () => {
  const { t, cli } = await runtimeCli();
  await createLoopRule(cli, {
    concurrency: '{"limit":1}',
    toolCalls: ['{"tool":"quests.create","args":{"title":"Build"}}'],
  });
  await runTrigger('loop:detected', { company: 'acme' }, cli.ctx);
  await runTrigger('loop:detected', { company: 'acme' }, cli.ctx);
  assert.match(cli.stdout(), /concurrency/);
  await t.close();
});

test('events failures lists a failed call; events replay runs it once, then says it was replayed', async () => {
  const { t, cli } = await runtimeCli();
  await createLoopRule(cli, {
    toolCalls: ['{"tool":"message_to","args":{"to":"reviewer","text":"hi"}}'],
  });
  await runTrigger('loop:detected', { company: 'acme' }, cli.ctx);
  await runFailures({ company: 'acme' }, cli.ctx);
  const line = cli.stdout().trim().split('\n').at(-1)!;
  assert.match(line, /^evt_\S+\|cev_\S+\|0 {2}message_to {2}×1 {2}2026-01-15T12:00:00\.000Z {2}No agent/);
  const id = line.split('  ')[0]!;
  await t.services.agents.create({ name: 'Rita', role: 'reviewer' });
  await runReplay(id, { company: 'acme' }, cli.ctx);
  await runReplay(id, { company: 'acme' }, cli.ctx);
  const out = cli.stdout();
  assert.match(out, new RegExp(`replayed ${id.replace(/\|/g, '\\|')} → evt_\\S+ \\[ok\\]`));
  assert.match(out, /skipped \S+ \(already_replayed → evt_/);
  assert.instance(await runReplay(undefined, { company: 'acme' }, cli.ctx).catch((e) => e), UsageError);
  await t.close();
});

test('events preview reads the rule from a file and prints what it would fire', async () => {
  const { t, cli } = await runtimeCli();
  await t.post('/api/events/trigger', { type: 'loop:detected' });
  await t.post('/api/events/trigger', { type: 'loop:detected' });
  const file = join(tempDir('svc-preview'), 'rule.json');
  writeFileSync(
    file,
    JSON.stringify({
      type: 'loop:detected',
      concurrency: { limit: 1 },
      tool_calls: [{ tool: 'quests.create', args: { title: 'x' } }],
    }),
  );
  await runPreview({ company: 'acme', file, since: '2026-01-15T11:00:00Z' }, cli.ctx);
  const out = cli.stdout();
  assert.match(out, /would fire {2}evt_\S+ {2}quests\.create/);
  assert.match(out, /not fired {3}evt_\S+ {2}\(concurrency\)/);
  assert.match(out, /1 would fire, 1 not/);
  assert.instance(await runPreview({ company: 'acme', file, since: 'last week' }, cli.ctx).catch((e) => e), UsageError);
  assert.is(timeFlag('--since', '7d', Date.parse('2026-01-15T12:00:00Z')), '2026-01-08T12:00:00.000Z');
  await t.close();
});

test.run();
