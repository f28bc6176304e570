import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTail } from '../../../cli/commands/events/tail.js';
import { FailedError, ApiRequestError } from '../../../cli/errors.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createRuntimeApi } from '../../helpers/runtime-api.js';
import { createRuntimeTestApp } from '../../helpers/runtime-app.js';

test('tail prints history from a cursor, reconnects after a lost connection and resumes from the last printed id', async () => {
  const t = await createRuntimeTestApp();
  const first = await t.services.events.emit({ type: 'session:custom', content: { n: 0 } });
  for (let n = 1; n <= 3; n++) await t.services.events.emit({ type: 'session:custom', content: { n } });
  const controller = new AbortController();
  let polls = 0;
  const { api, calls } = createRuntimeApi(t, {
    fail: (call) => {
      if (call.path !== '/api/events') return null;
      polls++;
      if (polls === 2) return new FailedError('cannot reach the svc daemon at http://test.invalid (ECONNREFUSED)');
      if (polls === 3) {
        // While "disconnected", two more events happened; the next poll must bring exactly those.
        void t.services.events.emit({ type: 'session:custom', content: { n: 4 } });
        void t.services.events.emit({ type: 'session:custom', content: { n: 5 } });
      }
      if (polls === 5) controller.abort();
      return null;
    },
  });
  const cli = createFakeCli({ api });
  const sleeps: number[] = [];
  await runTail(
    {
      company: 'acme',
      sinceId: first.event.id,
      waitSeconds: 0,
      signal: controller.signal,
      sleep: async (ms) => void sleeps.push(ms),
    },
    cli.ctx,
  );
  const lines = cli.stdout().trim().split('\n');
  // Piped output: one JSON object per line, each event once, in order.
  assert.equal(
    lines.map((l) => JSON.parse(l).content.n),
    [1, 2, 3, 4, 5],
  );
  const polled = calls.filter((c) => c.path === '/api/events');
  assert.is(polled[0]!.query.since_id, first.event.id);
  const lastOfFirstPage = JSON.parse(lines[2]!).id;
  assert.is(polled[1]!.query.since_id, lastOfFirstPage, 'the failed poll asked from the last printed id');
  assert.is(polled[2]!.query.since_id, lastOfFirstPage, 'and so did the retry');
  assert.match(cli.stderr(), /connection lost .*reconnecting in 1s, resuming after evt_/);
  assert.match(cli.stderr(), /reconnected/);
  assert.equal(sleeps, [1000]);
});

test('tail without a cursor starts from now, and stops on a final error', async () => {
  const t = await createRuntimeTestApp();
  await t.services.events.emit({ type: 'session:old' });
  t.clock.advance(1000);
  const { api, calls } = createRuntimeApi(t, {
    fail: (call) =>
      call.path === '/api/events' && calls.filter((c) => c.path === '/api/events').length === 2
        ? new ApiRequestError(403, 'forbidden', 'not yours', {})
        : null,
  });
  const cli = createFakeCli({ api });
  cli.ctx.now = () => t.clock.now();
  const err = await runTail({ company: 'acme', waitSeconds: 0 }, cli.ctx).catch((e) => e);
  assert.instance(err, ApiRequestError);
  assert.is(cli.stdout(), '', 'the old event is not shown');
  assert.is(calls.find((c) => c.path === '/api/events')!.query.since, new Date(t.clock.now()).toISOString());
});

test.run();
