import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkSyncOrder, parseTrace } from './strace-log.js';

/** The order check of `npm run test:crash` on traces written by hand, in strace -f -y's format. */
const dir = '/tmp/d';
const log = `${dir}/events/000001.jsonl`;
const write = (pid: number, id: string, path = log) =>
  `${pid} pwrite64(27<${path}>, "{\\"id\\":\\"${id}\\",\\"type\\":\\"agent:x\\"}\\n", 40, 0) = 40`;
const answer = (pid: number, id: string) =>
  `${pid} writev(21<socket:[140335]>, [{iov_base="HTTP/1.1 200 OK\\r\\n\\r\\n", iov_len=19}, {iov_base="{\\"ok\\":true,\\"event\\":{\\"id\\":\\"${id}\\"}}", iov_len=40}], 2) = 59`;
const check = (...lines: string[]) => checkSyncOrder(parseTrace(lines.join('\n')), dir, ['evt_1']);

test('written, synced, then answered: in order', () => {
  assert.equal(check(write(1, 'evt_1'), `2 fdatasync(27<${log}>) = 0`, answer(1, 'evt_1')), []);
});

test('a sync that another thread finished after the answer, or that failed, does not count', () => {
  const late = check(
    write(1, 'evt_1'),
    `2 fdatasync(27<${log}> <unfinished ...>`,
    answer(1, 'evt_1'),
    '2 <... fdatasync resumed>) = 0',
  );
  assert.equal(late, [`evt_1: answered with ${log} written (pwrite64) but not synced`]);
  const failed = check(write(1, 'evt_1'), `2 fdatasync(27<${log}>) = -1 EIO (Input/output error)`, answer(1, 'evt_1'));
  assert.is(failed.length, 1);
});

test('a sync that started before the write does not cover it; one resumed before the answer does', () => {
  const before = check(
    `2 fdatasync(27<${log}> <unfinished ...>`,
    write(1, 'evt_1'),
    '2 <... fdatasync resumed>) = 0',
    answer(1, 'evt_1'),
  );
  assert.is(before.length, 1);
  const resumed = check(
    write(1, 'evt_1'),
    `2 fdatasync(27<${log}> <unfinished ...>`,
    '2 <... fdatasync resumed>) = 0',
    answer(1, 'evt_1'),
  );
  assert.equal(resumed, []);
});

test('a sync of another file, or no write at all before the answer, is a finding', () => {
  assert.is(
    check(write(1, 'evt_1'), `2 fdatasync(28<${dir}/accounts/000001.jsonl>) = 0`, answer(1, 'evt_1')).length,
    1,
  );
  assert.equal(check(answer(1, 'evt_1'), write(1, 'evt_1')), [
    'evt_1: answered before it was written to the data folder',
  ]);
  assert.equal(check(write(1, 'evt_1')), ['evt_1: its answer is not in the trace']);
});

test('a temp file must be synced, renamed into place and its folder synced before the answer', () => {
  const tmp = `${dir}/doc.json.tmp`;
  const lines = [write(1, 'evt_1', tmp), `1 fsync(30<${tmp}>) = 0`, `1 rename("${tmp}", "${dir}/doc.json") = 0`];
  assert.equal(check(...lines, `1 fsync(31<${dir}>) = 0`, answer(1, 'evt_1')), []);
  assert.equal(check(...lines, answer(1, 'evt_1')), [
    `evt_1: answered before the folder of ${dir}/doc.json was synced after the rename`,
  ]);
});

test.run();
