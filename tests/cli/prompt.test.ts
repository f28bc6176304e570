import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough } from 'node:stream';
import { createCliContext } from '../../cli/context.js';
import { promptNewPassword, promptSecret, readStdinLines } from '../../cli/prompt.js';
import { stripAnsi } from '../helpers/fake-terminal.js';

/**
 * Waits for the prompt to draw something. The deadline times nothing: it only turns a prompt that
 * never draws it into a failure instead of a hung run, so it is far above any load's delay.
 */
async function waitUntil(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the prompt never showed what was expected');
    await new Promise((r) => setTimeout(r, 5));
  }
}
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
  const stderr = new PassThrough();
  let written = '';
  stderr.on('data', (c) => (written += c));
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  const ctx = createCliContext({ io: { stdin, stdout, stderr }, env: {} });
  return { ctx, stdin, written: () => written };
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
  const { ctx, stdin, written } = ttyContext();
  const answer = promptNewPassword(ctx);
  // Paced like typing: each prompt attaches to the terminal when the one before it is done.
  const type = async (text: string) => {
    await new Promise((r) => setTimeout(r, 300));
    stdin.write(text);
  };
  await type('short\r');
  await waitUntil(() => /at least 12 characters/.test(stripAnsi(written())));
  assert.not.match(stripAnsi(written()), /Password again/, 'the rules are checked before the confirmation prompt');
  // The short entry is kept on the line to fix: erase it, then a good one, and a different confirmation.
  await type('\u007f'.repeat(5) + 'correct horse battery staple\r');
  await type('correct horse battery staple\r');
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
