import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compileLinear,
  createBoundedRegex,
  SCAN_OVERLAP,
  SCAN_WINDOW,
  scanWindows,
  type LinearRegex,
} from '../../../../daemon/company/detectors/bounded-regex.js';

/** A compiled pattern that records the length of every input it is run on: one entry per window scan. */
function counting(source: string, flags = '') {
  const re = compileLinear(source, flags);
  const scans: number[] = [];
  const regex = {
    test: (text: string) => (scans.push(text.length), re.test(text)),
    matcher: (text: string) => (scans.push(text.length), re.matcher(text)),
  } as unknown as LinearRegex;
  return { regex, scans };
}

const sql = compileLinear('\\b(drop\\s+(table|database|schema)|truncate\\s+table)\\b', 'i');

test('a match after the first 4 KiB is found: 4,100 spaces before DROP TABLE', () => {
  const regex = createBoundedRegex();
  assert.ok(regex.test(sql, `${' '.repeat(4_100)}DROP TABLE users`));
  assert.ok(regex.test(sql, `${'x '.repeat(200_000)}DROP TABLE users`));
  assert.not.ok(regex.test(sql, `${' '.repeat(4_100)}DROP TABLESPACE users`));
});

test('a match straddling the edge of a window is found by the next one', () => {
  const regex = createBoundedRegex();
  const edge = SCAN_WINDOW; // the first window ends here, the second began SCAN_OVERLAP before it
  for (const at of [edge - 6, edge - 1, edge, edge + SCAN_WINDOW - SCAN_OVERLAP - 3]) {
    const text = `${'a'.repeat(at)} DROP TABLE users ${'b'.repeat(50_000)}`;
    assert.ok(regex.test(sql, text), `at ${at}`);
  }
  // Up to the overlap long, a match is found wherever it sits: `drop`, 4,000 spaces, `table`.
  const padded = `drop${' '.repeat(SCAN_OVERLAP - 10)}table`;
  const span = padded.length;
  for (const at of [
    edge - span - 2,
    edge - span,
    edge - span + 1,
    edge - (span >> 1),
    edge - 3,
    edge - 1,
    edge,
    edge + 2,
  ])
    assert.ok(regex.test(sql, `${'y'.repeat(at)} ${padded} ${'z'.repeat(30_000)}`), `padded at ${at}`);
});

test('every placement of a match across many small windows gives the answer of one pass over the whole text', () => {
  const regex = createBoundedRegex({ window: 40, overlap: 12 });
  // Assertions on what comes before and after a match are where a window's edge could lie: `\b`,
  // `^` and `$` must see the field, not the window.
  const cases: Array<[string, string, string]> = [
    ['\\bdrop\\s+table\\b', 'i', 'DROP  TABLE'],
    ['\\bdrop\\s+table\\b', 'i', 'DROP TABLESPACE'],
    ['\\bdrop\\s+table\\b', 'i', 'XDROP TABLE'],
    ['table$', '', 'table'],
    ['^drop', '', 'drop'],
    ['^drop', 'm', '\ndrop'],
    ['table\\B', '', 'tables'],
  ];
  for (const [source, flags, needle] of cases) {
    const re = compileLinear(source, flags);
    const oracle = new RegExp(source, flags);
    for (let at = 0; at <= 200; at++) {
      for (const tail of ['', ' ', 'x', 'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq']) {
        const text = `${'.'.repeat(at)}${needle}${tail}`;
        assert.is(regex.test(re, text), oracle.test(text), `/${source}/${flags} on ${JSON.stringify(text)}`);
      }
    }
  }
});

test('a large field takes a bounded number of bounded scans: linear in its size', () => {
  const regex = createBoundedRegex();
  const step = SCAN_WINDOW - SCAN_OVERLAP;
  for (const size of [SCAN_WINDOW, 256 * 1024, 1024 * 1024]) {
    const { regex: re, scans } = counting('DROP\\s+TABLE', 'i');
    assert.not.ok(regex.test(re, 'x'.repeat(size)));
    assert.is(scans.length, 1 + Math.ceil((size - SCAN_WINDOW) / step), `${size} characters`);
    assert.ok(
      scans.every((n) => n <= SCAN_WINDOW + 1),
      'each scan is one window (and one character before it)',
    );
    const total = scans.reduce((a, b) => a + b, 0);
    assert.ok(total <= (size * SCAN_WINDOW) / step + SCAN_WINDOW, `${total} characters scanned for ${size}`);
  }
  const early = counting('DROP\\s+TABLE', 'i');
  assert.ok(regex.test(early.regex, `DROP TABLE ${'x'.repeat(1024 * 1024)}`));
  assert.is(early.scans.length, 2, 'the first match ends the scan (one pass to find it, one to place it)');
});

test('windows never split a surrogate pair, and cover the field end to end', () => {
  const text = '😀'.repeat(100);
  const windows = [...scanWindows(text, 41, 10)];
  assert.is(windows[0]![0], 0);
  assert.is(windows.at(-1)![1], text.length);
  for (const [start, end] of windows) {
    assert.ok(start % 2 === 0 && end % 2 === 0, `[${start}, ${end})`);
    assert.ok(end - start <= 41);
  }
  for (let i = 1; i < windows.length; i++) assert.ok(windows[i]![0] <= windows[i - 1]![1] - 9, 'they overlap');
  assert.ok(createBoundedRegex({ window: 41, overlap: 10 }).test(compileLinear('😀x'), `${text}x`));
  assert.throws(() => createBoundedRegex({ window: 20, overlap: 10 }), /over twice the overlap/);
});

test.run();
