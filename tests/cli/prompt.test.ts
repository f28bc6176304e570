import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough } from 'node:stream';
import { createCliContext } from '../../cli/context.js';
import { promptSecret, readStdinLines } from '../../cli/prompt.js';
import { CancelledError, UsageError } from '../../cli/errors.js';

function ttyContext() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, raw: false, setRawMode(raw: boolean) { this.raw = raw; return this; } });
  const stderr = new PassThrough();
  let written = '';
  stderr.on('data', (c) => (written += c));
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  const ctx = createCliContext({ io: { stdin, stdout, stderr }, env: {} });
  return { ctx, stdin, written: () => written };
}

test('promptSecret reads without echo, handles backspace, restores the terminal', async () => {
  const { ctx, stdin, written } = ttyContext();
  const answer = promptSecret(ctx, 'Password: ');
  stdin.write('hunter2x\u007f!\r');
  assert.is(await answer, 'hunter2!');
  assert.is(stdin.raw, false);
  assert.is(written(), 'Password: \n', 'nothing of the secret is echoed');
});

test('promptSecret: Ctrl-C cancels', async () => {
  const { ctx, stdin } = ttyContext();
  const answer = promptSecret(ctx, 'Password: ');
  stdin.write('abc\u0003');
  try {
    await answer;
    assert.unreachable();
  } catch (err) {
    assert.instance(err, CancelledError);
  }
  assert.is(stdin.raw, false);
});

test('readStdinLines drops the trailing newline and refuses a terminal or missing lines', async () => {
  const make = (text: string) => {
    const stdin = new PassThrough();
    stdin.end(text);
    return createCliContext({ io: { stdin, stdout: new PassThrough(), stderr: new PassThrough() }, env: {} });
  };
  assert.equal(await readStdinLines(make('secret one \n'), 1, 'x'), ['secret one ']);
  assert.equal(await readStdinLines(make('a\r\nb\n'), 2, 'x'), ['a', 'b']);
  for (const [text, n] of [['', 1], ['only\n', 2]] as const) {
    try {
      await readStdinLines(make(text), n, 'x');
      assert.unreachable();
    } catch (err) {
      assert.instance(err, UsageError);
    }
  }
  const { ctx } = ttyContext();
  try {
    await readStdinLines(ctx, 1, 'x');
    assert.unreachable();
  } catch (err) {
    assert.instance(err, UsageError);
  }
});

test.run();
