import { createInterface } from 'node:readline';
import type { CliContext } from './context.js';
import { CancelledError, UsageError } from './errors.js';

/**
 * Asks one question on the terminal and returns the answer line. With `secret`, the typed
 * characters are not echoed (keys and codes stay off the screen and out of scrollback).
 * Never prompts when stdin/stdout is not a terminal: the caller must have a flag for that case.
 */
export async function promptLine(ctx: CliContext, question: string, options: { secret?: boolean; flagHint?: string } = {}): Promise<string> {
  if (!ctx.interactive) throw new UsageError(`cannot ask "${question.trim()}" without a terminal`, options.flagHint);
  const output = ctx.io.stderr as NodeJS.WritableStream;
  const rl = createInterface({ input: ctx.io.stdin, output, terminal: true });
  if (options.secret) {
    // Readline echoes through _writeToOutput; after the question is shown, swallow the echo.
    const internals = rl as unknown as { _writeToOutput: (s: string) => void };
    let asked = false;
    internals._writeToOutput = (s: string) => {
      if (!asked || s.includes('\n')) output.write(asked ? '\n' : s);
    };
    output.write(question);
    asked = true;
  }
  try {
    return await new Promise<string>((resolve, reject) => {
      rl.question(options.secret ? '' : question, (answer) => resolve(answer.trim()));
      rl.once('SIGINT', () => reject(new CancelledError()));
      rl.once('close', () => reject(new CancelledError()));
    });
  } finally {
    rl.close();
  }
}

/** All of stdin (for a key piped in: `pass show wallet | svc login --wallet`). */
export async function readAllStdin(ctx: CliContext): Promise<string> {
  let text = '';
  for await (const chunk of ctx.io.stdin) text += chunk.toString();
  return text.trim();
}
