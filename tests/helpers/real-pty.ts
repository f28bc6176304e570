import { spawn } from 'node:child_process';
import { stripAnsi } from './fake-terminal.js';

export interface PtySession {
  /** Resolves once the terminal has shown text matching `re` (after what was matched before); fails after 10 s. */
  expect(re: RegExp): Promise<void>;
  /** Types on the keyboard. */
  send(keys: string): void;
  /** Waits for the program to exit: its code and everything the terminal showed (ANSI codes removed). */
  exit(): Promise<{ code: number | null; text: string }>;
}

/**
 * A command on a real pseudo-terminal, through util-linux `script` (no native module to build):
 * what the user sees and types, raw mode, line editing and all. Keys are typed only once the
 * prompt waited for is on screen, as a person would.
 */
export function runOnPty(argv: string[], env: Record<string, string>): PtySession {
  const line = argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  const child = spawn('script', ['-qfec', line, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  let seen = 0;
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (c) => {
    raw += String(c);
    waiters.splice(0).forEach((w) => {
      w();
    });
  });
  child.stderr.on('data', (c) => (raw += String(c)));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    expect: (re) =>
      new Promise<void>((resolve, reject) => {
        // A prompt that never comes fails the test and ends the program, so the suite never hangs on it.
        const guard = setTimeout(() => {
          child.kill();
          reject(new Error(`the terminal never showed ${re}; it showed:\n${stripAnsi(raw)}`));
        }, 10_000);
        const check = () => {
          const text = stripAnsi(raw);
          const m = re.exec(text.slice(seen));
          if (!m) return void waiters.push(check);
          seen += m.index + m[0].length;
          clearTimeout(guard);
          resolve();
        };
        check();
      }),
    send: (keys) => void child.stdin.write(keys),
    exit: async () => ({ code: await exited, text: stripAnsi(raw) }),
  };
}
