import type { CliIO } from './context.js';
import { CliError } from './errors.js';

/** An error → one line on stderr (plus a hint when there is one) and the exit code; the stack only under SVC_DEBUG. */
export function reportError(err: unknown, io: CliIO, env: Record<string, string | undefined> = process.env): number {
  // commander's own errors: help and --version "exit" with 0; anything else it rejects is a usage error (it printed why).
  if ((err as { code?: string })?.code?.startsWith?.('commander.'))
    return (err as { exitCode: number }).exitCode === 0 ? 0 : 2;
  if (err instanceof CliError) {
    io.stderr.write(`svc: ${err.message}\n`);
    if (err.hint) io.stderr.write(`hint: ${err.hint}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  io.stderr.write(`svc: ${e?.message ?? String(err)}\n`);
  if (env.SVC_DEBUG && e?.stack) io.stderr.write(e.stack + '\n');
  return 1;
}
