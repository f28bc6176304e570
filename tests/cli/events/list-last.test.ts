import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runList } from '../../../cli/commands/events/list.js';
import { UsageError } from '../../../cli/errors.js';
import { createFakeCli, runMain } from '../../helpers/cli.js';
import { createRuntimeApi } from '../../helpers/runtime-api.js';
import { createRuntimeTestApp } from '../../helpers/runtime-app.js';

async function setup(json = false) {
  const t = await createRuntimeTestApp();
  const { api, calls } = createRuntimeApi(t);
  const cli = createFakeCli({ api, json });
  for (let n = 1; n <= 12; n++) await t.services.events.emit({ type: 'session:step_start', content: { n } });
  return { t, cli, calls };
}

const ns = (out: string) => [...out.matchAll(/\{"n":(\d+)\}/g)].map((m) => Number(m[1]));

test('events list --last 3: the newest three, oldest of them first; --reverse: newest first', async () => {
  const { cli, calls } = await setup();
  await runList({ company: 'acme', last: 3 }, cli.ctx);
  assert.equal(ns(cli.stdout()), [10, 11, 12]);
  assert.equal(calls.find((c) => c.path === '/api/events')!.query, { last: 3 });
  const rev = await setup(true);
  await runList({ company: 'acme', last: 3, reverse: true }, rev.cli.ctx);
  assert.equal(
    JSON.parse(rev.cli.stdout()).map((e: { content: { n: number } }) => e.content.n),
    [12, 11, 10],
  );
});

test('--reverse alone turns one page around; every printed row carries its event id', async () => {
  const { cli } = await setup();
  await runList({ company: 'acme', reverse: true, limit: 2 }, cli.ctx);
  assert.equal(ns(cli.stdout()), [2, 1]);
  assert.match(cli.stdout(), /evt_0{15}2/);
});

test('--last with --since-id or --limit is a usage error before any request; a bad --last is exit 2', async () => {
  const { cli, calls } = await setup();
  const err = await runList({ company: 'acme', last: 3, limit: 5 }, cli.ctx).catch((e) => e);
  assert.instance(err, UsageError);
  assert.is(calls.filter((c) => c.path === '/api/events').length, 0);
  for (const bad of ['0', '1001', 'x']) {
    const res = await runMain(['events', 'list', '--last', bad, '--company', 'acme']);
    assert.is(res.code, 2, bad);
    assert.match(res.err, '--last must be a whole number from 1 to 1000');
  }
});

test.run();
