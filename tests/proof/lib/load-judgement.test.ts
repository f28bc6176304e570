import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkBounds, makeSchedule, type Sample, summarize, waitForWindow } from './load-phases.js';
import { ThrottleLedger } from './throttle-ledger.js';

/** How `npm run load` judges what it measured: which 429s were asked for, and when appends count as starved. */
const routes = { append: 'append', login: 'login' };

test('a 429 is deserved only once `limit` counted answers arrived within the window before it was sent', () => {
  const ledger = new ThrottleLedger(3, 1000);
  ledger.count(100);
  ledger.count(200);
  assert.is(ledger.deserves429(250), false, 'two counted calls: a 429 comes too early');
  ledger.count(300);
  assert.is(ledger.deserves429(350), true);
  assert.is(ledger.deserves429(1150), false, 'the first call has left the window');
  assert.is(new ThrottleLedger(0, 1000).deserves429(0), false, 'a limit of 0 is off: no 429 is asked for');
});

test('windows alternate off, on, on, off, …: logins wait for theirs, the stand-in hashes for the others', () => {
  const s = makeSchedule(40, 0); // 4 windows of 10 s
  assert.is(s.windows, 4);
  assert.is(waitForWindow(s, 0, true), 10_000);
  assert.is(waitForWindow(s, 15_000, true), 0);
  assert.is(waitForWindow(s, 15_000, false), 15_000);
  assert.is(waitForWindow(s, 35_000, true), null);
});

/** Appends every 10 ms from 0 to 20 s; logins in flight 10–20 s, stand-in hashes 1–10 s. */
function run(appendEveryWithLogins: number): Sample[] {
  const samples: Sample[] = [{ route: 'login', status: 200, from: 10_000, to: 20_000 }];
  for (let t = 1_000; t < 20_000; t += t < 10_000 ? 10 : appendEveryWithLogins)
    samples.push({ route: 'append', status: 200, from: t, to: t + 5 });
  return samples;
}

test('appends at the same pace with and without logins: ratio 1, nothing crossed', () => {
  const { starvation, routes: figures } = summarize(
    makeSchedule(20, 0),
    run(10),
    [{ from: 1_000, to: 10_000 }],
    routes,
  );
  assert.ok(Math.abs(starvation.ratio - 1) < 0.02, String(starvation.ratio));
  assert.equal(checkBounds(starvation, figures, { route: 'login', hashesPerLogin: 1 }), []);
});

test('appends at a quarter of their pace while logins run: the ratio bound is crossed', () => {
  const { starvation, routes: figures } = summarize(
    makeSchedule(20, 0),
    run(40),
    [{ from: 1_000, to: 10_000 }],
    routes,
  );
  assert.ok(Math.abs(starvation.ratio - 0.25) < 0.02, String(starvation.ratio));
  const found = checkBounds(starvation, figures, { route: 'login', hashesPerLogin: 1 });
  assert.is(found.length, 1);
  assert.match(found[0]!, /appends starved by logins: .* \(ratio 0\.25, bound 0\.5\)/);
});

test('an append held up past four times its p99 without logins crosses its bound', () => {
  const samples = run(10);
  samples.push(
    ...Array.from({ length: 50 }, (_, i) => ({ route: 'append', status: 200, from: 12_000 + i, to: 14_000 })),
  );
  const { starvation, routes: figures } = summarize(
    makeSchedule(20, 0),
    samples,
    [{ from: 1_000, to: 10_000 }],
    routes,
  );
  assert.match(
    checkBounds(starvation, figures, { route: 'login', hashesPerLogin: 1 }).join('\n'),
    /^append: p99 \d+ ms while logins run against 5 ms without/,
  );
});

test.run();
