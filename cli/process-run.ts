import type { CliIO } from './context.js';

/** The process's streams; stdin is made only when a command reads it (making it costs ~2 ms at every start). */
export const processIo = (): CliIO => ({
  stdout: process.stdout,
  stderr: process.stderr,
  get stdin() {
    return process.stdin;
  },
});

/**
 * Runs the CLI as this process (main.js or the `svc` bin, bin.ts): the exit code, a closed pipe,
 * and whatever escapes a command. `report` turns such an error into its one line and exit code.
 */
export function runAsProcess(
  run: (argv: string[], io: CliIO, env: NodeJS.ProcessEnv) => Promise<number>,
  report: (err: unknown, io: CliIO) => Promise<number>,
): void {
  // A reader that went away (`svc events list | head -1`) is a normal end, not an error: exit 0, quietly.
  const quietOnClosedPipe = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  };
  process.stdout.on('error', quietOnClosedPipe);
  process.stderr.on('error', quietOnClosedPipe);
  // Whatever escapes a command still ends as one line, never a stack trace (unless SVC_DEBUG).
  const last = async (err: unknown) => {
    if ((err as NodeJS.ErrnoException)?.code === 'EPIPE') process.exit(0);
    process.exit(await report(err, processIo()));
  };
  process.on('uncaughtException', last);
  process.on('unhandledRejection', last);
  run(process.argv.slice(2), processIo(), process.env).then((code) => {
    process.exitCode = code;
  });
}
