import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runClock } from '../../../cli/commands/dev/clock.js';
import { UsageError } from '../../../cli/errors.js';
import { formatOffset, parseDuration } from '../../../shared/durations.js';
import { devLoopSetUp } from '../../helpers/dev-loop.js';

test('durations as people type them', () => {
  assert.is(parseDuration('2h'), 7_200_000);
  assert.is(parseDuration('1d12h'), 129_600_000);
  assert.is(parseDuration(' 90m '), 5_400_000);
  for (const bad of ['', '2', 'h', '-2h', '2 hours', '1.5h']) assert.is(parseDuration(bad), null, bad);
  assert.is(formatOffset(25 * 3_600_000), '+1d 1h');
  assert.is(formatOffset(0), '+0');
});

test('svc dev clock advance, set and status', async () => {
  const d = await devLoopSetUp({ devClock: true });
  try {
    await runClock({ advance: '2h' }, d.cli.ctx);
    assert.match(
      d.cli.stdout(),
      /^clock: 2026-01-15T14:00:00\.000Z \(\+2h ahead of real time\)\nmoved \+2h; schedule ticks fired meanwhile: 0\n$/,
    );
    const json = d.again({ json: true });
    await runClock({ status: true }, json.ctx);
    assert.is(JSON.parse(json.stdout()).offset_ms, 7_200_000);
    const back = await runClock({ set: '2026-01-15T13:00:00Z' }, d.again().ctx).catch((e) => e);
    assert.match(back.message, /only moves forward/);
    for (const [opts, pattern] of [
      [{ advance: 'soon' }, /cannot read 'soon' as a length of time/],
      [{ set: 'tomorrow' }, /cannot read 'tomorrow' as a time/],
    ] as const) {
      const err = await runClock(opts, d.again().ctx).catch((e) => e);
      assert.instance(err, UsageError);
      assert.match(err.message, pattern);
    }
  } finally {
    await d.close();
  }
});

test('a daemon whose clock cannot move: status says why, advance fails with the reason', async () => {
  const d = await devLoopSetUp();
  try {
    await runClock({ status: true }, d.cli.ctx);
    assert.match(d.cli.stdout(), /\(real time\)/);
    assert.match(d.cli.stderr(), /cannot move/);
    const err = await runClock({ advance: '1h' }, d.again().ctx).catch((e) => e);
    assert.match(err.message, /The clock cannot move here/);
  } finally {
    await d.close();
  }
});

test.run();
