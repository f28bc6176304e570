import { createInterface } from 'node:readline';
import type { CliContext } from './context.js';
import { CancelledError, UsageError } from './errors.js';

/**
 * Asking the user for input. Questions go to stderr, so stdout stays clean for --json and pipes.
 * Secrets (passwords, TOTP codes) are read without echo, straight from a terminal, never from argv
 * (argv is visible to every user of the machine through `ps`).
 */
type TtyIn = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/** Throws a usage error naming the flag to use when there is no terminal to ask on. */
export function requireInteractive(ctx: CliContext, what: string, flagHint: string): void {
  if (!ctx.interactive) throw new UsageError(`${what} is needed and there is no terminal to ask on`, flagHint);
}

/** One line of visible input (an e-mail address, an invite code). */
export function promptLine(ctx: CliContext, question: string): Promise<string> {
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: Boolean(ctx.io.stdin.isTTY) });
  return new Promise((resolve, reject) => {
    rl.on('SIGINT', () => {
      rl.close();
      reject(new CancelledError());
    });
    rl.question(question, (answer) => {
      rl.close();
      resolve(answer.trim());
    });
  });
}

/** One line typed without echo; Ctrl-C cancels. The terminal is put back as it was whatever happens. */
export function promptSecret(ctx: CliContext, question: string): Promise<string> {
  const input = ctx.io.stdin as TtyIn;
  if (!input.isTTY || !input.setRawMode) throw new UsageError('a secret can only be typed on a terminal');
  ctx.io.stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (err: Error | null) => {
      input.removeListener('data', onData);
      input.setRawMode!(false);
      input.pause();
      ctx.io.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\u0003') return finish(new CancelledError());
        if (ch === '\r' || ch === '\n' || (ch === '\u0004' && value === '')) return finish(null);
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else if (ch >= ' ') value += ch;
      }
    };
    input.setRawMode!(true);
    input.resume();
    input.on('data', onData);
  });
}

/** A new password typed twice, so a typo does not lock the user out of a fresh account. */
export async function promptNewPassword(ctx: CliContext, label = 'Password'): Promise<string> {
  ctx.err('(12 to 128 characters; a passphrase of a few words is good)');
  const first = await promptSecret(ctx, `${label}: `);
  const second = await promptSecret(ctx, `${label} again: `);
  if (first !== second) throw new UsageError('the two passwords differ');
  return first;
}

/**
 * The lines of stdin (`--password-stdin`): all of it is read, trailing newlines dropped.
 * `count` lines are required (password change reads the current and the new one).
 */
export async function readStdinLines(ctx: CliContext, count: number, what: string): Promise<string[]> {
  if (ctx.io.stdin.isTTY) throw new UsageError(`--password-stdin reads ${what} from a pipe, not a terminal`, 'e.g. printf "%s\\n" "$PASSWORD" | svc login --password-stdin');
  let text = '';
  for await (const chunk of ctx.io.stdin) text += chunk.toString();
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  if (text.trim() === '' || lines.length < count || lines.slice(0, count).some((l) => l === '')) {
    throw new UsageError(`--password-stdin expects ${what} on stdin${count > 1 ? `, one per line` : ''}`);
  }
  return lines.slice(0, count);
}

/**
 * One question for flows that also run without a terminal given a flag: a usage error naming
 * `flagHint` when there is no terminal; with `secret`, nothing typed is echoed (raw mode on a real
 * terminal; elsewhere readline with its echo swallowed).
 */
export async function ask(ctx: CliContext, question: string, options: { secret?: boolean; flagHint?: string } = {}): Promise<string> {
  if (!ctx.interactive) throw new UsageError(`cannot ask "${question.trim()}" without a terminal`, options.flagHint);
  if (!options.secret) return promptLine(ctx, question);
  if ((ctx.io.stdin as TtyIn).setRawMode) return promptSecret(ctx, question);
  const output = ctx.io.stderr as NodeJS.WritableStream;
  const rl = createInterface({ input: ctx.io.stdin, output, terminal: true });
  // Readline echoes through _writeToOutput; after the question is shown, swallow the echo.
  const internals = rl as unknown as { _writeToOutput: (s: string) => void };
  internals._writeToOutput = (chunk: string) => {
    if (chunk.includes('\n')) output.write('\n');
  };
  output.write(question);
  try {
    return await new Promise<string>((resolve, reject) => {
      rl.question('', (answer) => resolve(answer.trim()));
      rl.once('SIGINT', () => reject(new CancelledError()));
      rl.once('close', () => reject(new CancelledError()));
    });
  } finally {
    rl.close();
  }
}

/** All of stdin, trimmed (a key piped in: `pass show wallet | svc login --wallet`). */
export async function readAllStdin(ctx: CliContext): Promise<string> {
  let text = '';
  for await (const chunk of ctx.io.stdin) text += chunk.toString();
  return text.trim();
}
