import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough } from 'node:stream';
import { createCliContext } from '../../cli/context.js';
import { promptNewPassword, promptSecret, readStdinLines } from '../../cli/prompt.js';
import { stripAnsi } from '../helpers/fake-terminal.js';
import { CancelledError, UsageError } from '../../cli/errors.js';

function ttyContext() {
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    raw: false,
    setRawMode(raw: boolean) {
      this.raw = raw;
      return this;
    },
  });
  // Like process.stderr, which a pipe never ends: each prompt pipes its output here and ends that pipe when done.
  const stderr = new PassThrough();
  stderr.end = (() => stderr) as typeof stderr.end;
  let written = '';
  stderr.on('data', (c) => (written += c));
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  const ctx = createCliContext({ io: { stdin, stdout, stderr }, env: {} });
  /**
   * Resolves once the prompt has drawn `pattern`: woken by what it writes, so no clock is involved
   * (a prompt that never draws it leaves the run unsettled, which fails it).
   */
  const drawn = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!pattern.test(stripAnsi(written))) return;
        stderr.off('data', check);
        resolve();
      };
      stderr.on('data', check);
      check();
    });
  return { ctx, stdin, written: () => written, drawn };
}

test('promptSecret reads without echo, handles backspace and arrow keys, restores the terminal', async () => {
  const { ctx, stdin, written } = ttyContext();
  const answer = promptSecret(ctx, 'Password: ');
  // Arrow keys move the cursor (left, then right again): they must not end up in the password.
  stdin.write('hunter2x\u007f!');
  stdin.write('\x1b[D');
  stdin.write('\x1b[C');
  stdin.write('pass\r');
  assert.is(await answer, 'hunter2!pass');
  assert.is(stdin.raw, false);
  const shown = stripAnsi(written());
  assert.match(shown, /Password/);
  assert.not.match(shown, /hunter|pass\b|\*/, 'nothing of the secret is echoed, not even its length');
});

test('promptNewPassword checks the rules before the confirmation prompt', async () => {
  const { ctx, stdin, written, drawn } = ttyContext();
  const answer = promptNewPassword(ctx);
  // Each prompt attaches to the terminal when the one before it is done: type once it has drawn.
  await drawn(/Password/);
  stdin.write('short\r');
  await drawn(/at least 12 characters/);
  assert.not.match(stripAnsi(written()), /Password again/, 'the rules are checked before the confirmation prompt');
  // The short entry is kept on the line to fix: erase it, type a good one, then its confirmation.
  stdin.write('\u007f'.repeat(5) + 'correct horse battery staple\r');
  await drawn(/Password again/);
  stdin.write('correct horse battery staple\r');
  assert.is(await answer, 'correct horse battery staple');
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
  for (const [text, n] of [
    ['', 1],
    ['only\n', 2],
  ] as const) {
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
