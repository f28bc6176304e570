import type { CliContext } from './context.js';
import { CancelledError, UsageError } from './errors.js';

/**
 * Asking the user for input, through @inquirer's prompts (loaded only when a prompt is shown):
 * line editing, arrow keys and backspace behave as in any terminal program instead of ending up
 * in the answer. Questions go to stderr, so stdout stays clean for --json and pipes. Secrets
 * (passwords, codes) are never echoed and never taken from argv (argv shows in `ps`).
 */

/** The password rules of the daemon (spec §3.1), checked as the password is typed, before the confirmation. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;
export const passwordProblem = (p: string): string | null =>
  [...p].length < PASSWORD_MIN
    ? `at least ${PASSWORD_MIN} characters (a passphrase of a few words is good)`
    : [...p].length > PASSWORD_MAX
      ? `at most ${PASSWORD_MAX} characters`
      : null;

/** How many times a wrong password or code is asked again before the command gives up. */
export const TRIES = 3;

/** Throws a usage error naming the flag to use when there is no terminal to ask on. */
export function requireInteractive(ctx: CliContext, what: string, flagHint: string): void {
  if (!ctx.interactive) throw new UsageError(`${what} is needed and there is no terminal to ask on`, flagHint);
}

const streams = (ctx: CliContext) => ({ input: ctx.io.stdin, output: ctx.io.stderr, clearPromptOnDone: false });
const message = (question: string) => question.replace(/:\s*$/, '');

/** Ctrl-C (or a closed input) ends a prompt with @inquirer's ExitPromptError: that is a cancel (exit 130). */
async function cancellable<T>(prompt: Promise<T>): Promise<T> {
  try {
    return await prompt;
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError')
      throw new CancelledError();
    throw err;
  }
}

/** One line of visible input (an e-mail address, an invite code), trimmed. */
export async function promptLine(
  ctx: CliContext,
  question: string,
  validate?: (v: string) => string | true,
  /** What Enter answers (shown in the prompt), e.g. the e-mail of the profile's last login. */
  answer?: string,
): Promise<string> {
  const { default: input } = await import('@inquirer/input');
  return (await cancellable(input({ message: message(question), validate, default: answer }, streams(ctx)))).trim();
}

/** One line typed without echo. `validate` answers an error to show, and the prompt asks again. */
export async function promptSecret(
  ctx: CliContext,
  question: string,
  validate?: (v: string) => string | true,
): Promise<string> {
  const { default: password } = await import('@inquirer/password');
  return cancellable(password({ message: message(question), validate }, streams(ctx)));
}

/**
 * A new password typed twice, so a typo does not lock the user out of a fresh account. The rules
 * are checked on the first entry (asked again at once), the two entries compared after the
 * second (both asked again, up to TRIES times).
 */
export async function promptNewPassword(ctx: CliContext, label = 'Password'): Promise<string> {
  ctx.err(`(${PASSWORD_MIN} to ${PASSWORD_MAX} characters; a passphrase of a few words is good)`);
  for (let attempt = 1; ; attempt++) {
    const first = await promptSecret(ctx, `${label}: `, (v) =>
      passwordProblem(v) ? `The password needs ${passwordProblem(v)}.` : true,
    );
    const second = await promptSecret(ctx, `${label} again: `);
    if (first === second) return first;
    if (attempt >= TRIES) throw new UsageError('the two passwords differ');
    ctx.err('The two passwords differ; type them again.');
  }
}

/**
 * The lines of stdin (`--password-stdin`): all of it is read, trailing newlines dropped.
 * `count` lines are required (password change reads the current and the new one).
 */
export async function readStdinLines(ctx: CliContext, count: number, what: string): Promise<string[]> {
  if (ctx.io.stdin.isTTY)
    throw new UsageError(
      `--password-stdin reads ${what} from a pipe, not a terminal`,
      'e.g. printf "%s\\n" "$PASSWORD" | svc login --password-stdin',
    );
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
 * `flagHint` when there is no terminal; with `secret`, nothing typed is echoed.
 */
export async function ask(
  ctx: CliContext,
  question: string,
  options: { secret?: boolean; flagHint?: string } = {},
): Promise<string> {
  if (!ctx.interactive) throw new UsageError(`cannot ask "${question.trim()}" without a terminal`, options.flagHint);
  return options.secret ? (await promptSecret(ctx, question)).trim() : promptLine(ctx, question);
}

/**
 * Runs `attempt` with an answer from `prompt`, asking again (up to TRIES times in all) while
 * `isWrong` says the daemon refused the answer (a wrong password or code); the last refusal is thrown.
 */
export async function withRetries<T>(
  ctx: CliContext,
  prompt: () => Promise<string>,
  attempt: (answer: string) => Promise<T>,
  isWrong: (err: unknown) => boolean,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(await prompt());
    } catch (err) {
      if (n >= TRIES || !isWrong(err)) throw err;
      ctx.err(`${(err as Error).message} — try again (${TRIES - n} ${TRIES - n === 1 ? 'try' : 'tries'} left).`);
    }
  }
}

/** All of stdin, trimmed (a key piped in: `pass show wallet | svc login --wallet`). */
export async function readAllStdin(ctx: CliContext): Promise<string> {
  let text = '';
  for await (const chunk of ctx.io.stdin) text += chunk.toString();
  return text.trim();
}
