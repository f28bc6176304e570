import { PassThrough } from 'node:stream';

export interface FakeTerminal {
  stdout: PassThrough & { isTTY: boolean; columns: number; rows: number };
  stdin: PassThrough & { isTTY: boolean; setRawMode(mode: boolean): unknown; ref(): unknown; unref(): unknown };
  stderr: PassThrough & { isTTY: boolean };
  /** Everything written to stdout, ANSI codes removed. */
  text(): string;
  /** The last non-empty chunk written to stdout, ANSI codes removed: the last frame Ink drew. */
  lastFrame(): string;
  stderrText(): string;
  /** Types keys on the fake keyboard (raw mode: 'q', 'p', '\x03' for Ctrl-C). */
  press(keys: string): void;
  /**
   * Resolves once the stdout text satisfies `check` (checked after every write). A guard rejects
   * after 5 s with what was shown, so a broken view fails its test instead of hanging the suite.
   */
  waitFor(check: (text: string, lastFrame: string) => boolean): Promise<void>;
}

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;
export const stripAnsi = (s: string) => s.replace(ANSI, '');

/**
 * Streams that look like an interactive terminal to Ink: a stdout with a size and a raw-mode stdin.
 * stdout says it is not a TTY: Ink would then hide the cursor, and cli-cursor registers an exit
 * hook that writes `ESC[?25h` to the test process's real stderr after the runner's last line.
 * Commands are told they are interactive through `ctx.interactive` instead.
 */
export function createFakeTerminal(size: { columns?: number; rows?: number } = {}): FakeTerminal {
  const stdout = Object.assign(new PassThrough(), {
    isTTY: false,
    columns: size.columns ?? 100,
    rows: size.rows ?? 20,
  });
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => stdin,
    ref: () => stdin,
    unref: () => stdin,
  });
  const stderr = Object.assign(new PassThrough(), { isTTY: false });
  let raw = '';
  let last = '';
  let errText = '';
  const waiters: Array<() => void> = [];
  stdout.on('data', (c) => {
    raw += String(c);
    // Ink wraps a frame in "synchronized update" codes written separately; skip those.
    if (stripAnsi(String(c)).trim() !== '') last = String(c);
    waiters.splice(0).forEach((w) => {
      w();
    });
  });
  stderr.on('data', (c) => (errText += String(c)));
  const text = () => stripAnsi(raw);
  const lastFrame = () => stripAnsi(last);
  return {
    stdout,
    stdin,
    stderr,
    text,
    lastFrame,
    stderrText: () => errText,
    press: (keys) => void stdin.write(keys),
    waitFor: (check) =>
      new Promise<void>((resolve, reject) => {
        const guard = setTimeout(
          () => reject(new Error(`the terminal never showed what was expected; last frame:\n${lastFrame()}`)),
          5000,
        );
        guard.unref();
        const attempt = () => {
          if (!check(text(), lastFrame())) return void waiters.push(attempt);
          clearTimeout(guard);
          resolve();
        };
        attempt();
      }),
  };
}
