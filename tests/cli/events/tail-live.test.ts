import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runTail } from '../../../cli/commands/events/tail.js';
import type { CliContext } from '../../../cli/context.js';
import { ApiRequestError, FailedError } from '../../../cli/errors.js';
import { createFakeCli } from '../../helpers/cli.js';
import { createFakeTerminal, type FakeTerminal } from '../../helpers/fake-terminal.js';
import { createRuntimeApi as createInstantApi } from '../../helpers/runtime-api.js';
import { createRuntimeTestApp } from '../../helpers/runtime-app.js';

/**
 * The in-process API answers within microtasks; with `wait: 0` a follow loop would then starve
 * the event loop (no keys, no renders). A real request yields to I/O, and so does this one.
 */
function createRuntimeApi(...args: Parameters<typeof createInstantApi>) {
  const made = createInstantApi(...args);
  const get = made.api.get;
  made.api.get = async (path, opts) => (await new Promise((r) => setImmediate(r)), get(path, opts));
  return made;
}

/** Every follow loop a test starts stops after it, pass or fail, so a failure cannot hang the suite. */
const stops: AbortController[] = [];
const stopSignal = () => {
  const c = new AbortController();
  stops.push(c);
  return c.signal;
};
test.after.each(() =>
  stops.splice(0).forEach((c) => {
    c.abort();
  }),
);

/** A context whose streams are a fake interactive terminal, as `createCliContext` would build on one. */
function onTerminal(ctx: CliContext, term: FakeTerminal, overrides: Partial<CliContext> = {}): CliContext {
  return {
    ...ctx,
    io: term,
    interactive: true,
    color: false,
    out: (line = '') => void term.stdout.write(line + '\n'),
    err: (line) => void term.stderr.write(line + '\n'),
    ...overrides,
  };
}

test('on an interactive terminal tail is a live view; q quits with a one-line summary', async () => {
  const t = await createRuntimeTestApp();
  const first = await t.services.events.emit({ type: 'session:custom', content: { n: 0 } });
  for (let n = 1; n <= 3; n++) await t.services.events.emit({ type: 'session:custom', content: { n } });
  const { api } = createRuntimeApi(t);
  const term = createFakeTerminal();
  const ctx = onTerminal(createFakeCli({ api }).ctx, term);
  const running = runTail(
    { company: t.company.name, sinceId: first.event.id, waitSeconds: 0, signal: stopSignal() },
    ctx,
  );
  await term.waitFor((text) => text.includes('n=3') && text.includes('● connected'));
  const text = term.text();
  assert.match(text, new RegExp(`svc events tail · ${t.company.name}`));
  assert.match(text, new RegExp(`following after ${first.event.id}`));
  assert.match(text, /session:custom {2}evt_\d{16} {2}n=1/);
  assert.not.match(text, /n=0/, 'the cursor event itself is not shown');
  assert.not.match(text, /^\{"id"/m, 'no JSON lines on a terminal');
  term.press('q');
  await running;
  const lastLine = term.text().trimEnd().split('\n').pop();
  assert.match(lastLine!, /^3 events shown; resume with: svc events tail --since-id evt_\d{16}$/);
});

test('the live view reports a lost connection in its status line (and on a redirected stderr), then resumes', async () => {
  const t = await createRuntimeTestApp();
  await t.services.events.emit({ type: 'session:custom', content: { n: 1 } });
  let polls = 0;
  const { api, calls } = createRuntimeApi(t, {
    fail: (call) =>
      call.path === '/api/events' && ++polls === 2
        ? new FailedError('cannot reach the svc daemon at http://test.invalid (ECONNREFUSED)')
        : null,
  });
  const term = createFakeTerminal();
  const ctx = onTerminal(createFakeCli({ api }).ctx, term, { now: () => 5_000 });
  let wake = () => {};
  const slept: number[] = [];
  const sleep = (ms: number) => new Promise<void>((resolve) => (slept.push(ms), (wake = resolve)));
  const running = runTail(
    { company: t.company.name, since: '2000-01-01T00:00:00.000Z', waitSeconds: 0, sleep, signal: stopSignal() },
    ctx,
  );
  await term.waitFor((text) => text.includes('reconnecting in 1s (connection lost (cannot reach the svc daemon'));
  assert.equal(slept, [1000]);
  assert.match(
    term.stderrText(),
    /^svc: connection lost \(cannot reach .*\); reconnecting in 1s, resuming after evt_\d{16}\n/,
  );
  void t.services.events.emit({ type: 'session:after', content: { n: 2 } });
  wake();
  await term.waitFor((_, frame) => frame.includes('session:after') && frame.includes('● connected'));
  assert.match(term.stderrText(), /svc: reconnected\n/);
  const polled = calls.filter((c) => c.path === '/api/events');
  assert.is(polled[0]!.query.wait, 0, 'the first poll does not wait, so "connected" shows at once');
  assert.is(polled[2]!.query.since_id, polled[1]!.query.since_id, 'the retry resumes from the last shown id');
  term.press('\x03');
  await running;
  assert.match(term.text(), /2 events shown/);
});

test('a final error closes the view and is thrown (no summary)', async () => {
  const t = await createRuntimeTestApp();
  const { api } = createRuntimeApi(t, {
    fail: (call) => (call.path === '/api/events' ? new ApiRequestError(403, 'forbidden', 'not yours', {}) : null),
  });
  const term = createFakeTerminal();
  const err = await runTail(
    { company: t.company.name, waitSeconds: 0, signal: stopSignal() },
    onTerminal(createFakeCli({ api }).ctx, term),
  ).catch((e) => e);
  assert.instance(err, ApiRequestError);
  assert.not.match(term.text(), /shown;|events shown/);
});

test('with --json on a terminal, tail prints JSON lines, not the live view', async () => {
  const t = await createRuntimeTestApp();
  const first = await t.services.events.emit({ type: 'session:custom', content: { n: 0 } });
  await t.services.events.emit({ type: 'session:custom', content: { n: 1 } });
  const controller = new AbortController();
  const { api } = createRuntimeApi(t, { fail: (_c, n) => (n > 3 ? (controller.abort(), null) : null) });
  const cli = createFakeCli({ api, json: true });
  const term = createFakeTerminal();
  const ctx = onTerminal(cli.ctx, term, { json: true });
  await runTail({ company: t.company.name, sinceId: first.event.id, waitSeconds: 0, signal: controller.signal }, ctx);
  assert.equal(
    term
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).content.n),
    [1],
  );
});

test.run();
