import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runBackfill } from '../../../cli/commands/events/backfill.js';
import { runBudget } from '../../../cli/commands/events/budget.js';
import { ApiRequestError, UsageError } from '../../../cli/errors.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createRuntimeApi } from '../../helpers/runtime-api.js';
import { createRuntimeTestApp } from '../../helpers/runtime-app.js';

test('events backfill runs the past ticks of a schedule and prints each; a rule that is no schedule is refused', async () => {
  const t = await createRuntimeTestApp();
  const { api, calls } = createRuntimeApi(t);
  const cli = createFakeCli({ api });
  // `--from 3h` is counted back from the CLI's now: the daemon's fake clock.
  Object.assign(cli.ctx, { now: () => t.clock.now() });
  const schedule = await t.services.events.create({
    type: 'schedule:0 * * * *',
    tool_calls: [{ tool: 'quests.create', args: { title: 'tick' } }],
  });
  await runBackfill(schedule.id, { company: 'acme', from: '3h', to: '2026-01-15T10:30:00Z' }, cli.ctx);
  assert.equal(calls.at(-1)!.body, { from: '2026-01-15T09:00:00.000Z', to: '2026-01-15T10:30:00Z' });
  assert.match(
    cli.stdout(),
    /^fired {4}2026-01-15T09:00:00\.000Z {2}evt_\S+\nfired {4}2026-01-15T10:00:00\.000Z {2}evt_\S+\n2 fired, 0 skipped\n$/,
  );
  assert.is((await t.services.quests.list({})).length, 2);
  const other = await t.services.events.create({ type: 'loop:detected', tool_calls: [] });
  const refused = await runBackfill(other.id, { company: 'acme', from: '1h' }, cli.ctx).catch((e) => e);
  assert.instance(refused, ApiRequestError);
  assert.match(refused.message, /not a schedule/);
  assert.instance(
    await runBackfill(schedule.id, { company: 'acme', from: 'yesterday' }, cli.ctx).catch((e) => e),
    UsageError,
  );
  await t.close();
});

test('events budget shows, sets and turns off the chain budget; bad flags are usage errors', async () => {
  const t = await createRuntimeTestApp();
  const { api } = createRuntimeApi(t);
  const cli = createFakeCli({ api });
  await runBudget({ company: 'acme' }, cli.ctx);
  assert.match(cli.stdout(), /no chain budget/);
  await runBudget({ company: 'acme', maxFirings: '50', within: '10m' }, cli.ctx);
  assert.match(cli.stdout(), /per chain within 600000 ms: 50 firings, any number of tool calls/);
  assert.equal(await t.services.events.budget.get(), { max_firings: 50, max_tool_calls: null, within_ms: 600_000 });
  await runBudget({ company: 'acme', off: true }, cli.ctx);
  assert.is(await t.services.events.budget.get(), null);
  for (const bad of [
    { maxFirings: '50' },
    { maxFirings: 'lots', within: '1m' },
    { within: '1m' },
    { within: 'soon', maxFirings: '5' },
    { off: true, within: '1m' },
  ])
    assert.instance(
      await runBudget({ company: 'acme', ...bad }, cli.ctx).catch((e) => e),
      UsageError,
      JSON.stringify(bad),
    );
  const tooShort = await runBudget({ company: 'acme', maxFirings: '5', within: '0' }, cli.ctx).catch((e) => e);
  assert.instance(tooShort, ApiRequestError);
  assert.match(tooShort.message, /within_ms: must be at least 1000/);
  await t.close();
});

test.run();
