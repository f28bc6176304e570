#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { VERSION } from '../shared/version.js';
import type { ContextFactory } from './command.js';
import { createCliContext, type CliIO } from './context.js';
import { CliError } from './errors.js';
import { registerCommands } from './commands/index.js';

export interface MainOptions {
  io?: CliIO;
  env?: Record<string, string | undefined>;
}

/** Builds the program: global flags, then every command from cli/commands/. */
export function buildProgram(makeCtx: ContextFactory, io: CliIO): Command {
  const program = new Command('svc')
    .description('svc: log in, manage access keys, follow events and relay MCP for the agent platform')
    .version(VERSION, '-v, --version')
    .option('--json', 'print machine-readable JSON')
    .option('--url <url>', 'platform URL (default $SVC_URL, a local daemon, or http://127.0.0.1:7878)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
    })
    .exitOverride();
  registerCommands(program, makeCtx);
  // Subcommands inherit exitOverride and output only when set before they are added, so set them again.
  const inherit = (cmd: Command) => {
    cmd.exitOverride().configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) });
    cmd.commands.forEach(inherit);
  };
  program.commands.forEach(inherit);
  return program;
}

/**
 * Runs the CLI and returns the exit code. The one place where errors become exit codes:
 * usage 2, auth required 4, not found / failed 1, cancelled 130.
 */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const io = options.io ?? { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
  const env = options.env ?? process.env;
  const program = buildProgram((globals) => createCliContext({ io, env, globals }), io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    return reportError(err, io);
  }
}

export function reportError(err: unknown, io: CliIO): number {
  if (err instanceof CommanderError) {
    // Help and --version "exit" with 0; everything else commander rejects is a usage error (it printed why).
    return err.exitCode === 0 ? 0 : 2;
  }
  if (err instanceof CliError) {
    io.stderr.write(`svc: ${err.message}\n`);
    if (err.hint) io.stderr.write(`hint: ${err.hint}\n`);
    return err.exitCode;
  }
  const e = err as Error;
  io.stderr.write(`svc: ${e?.message ?? String(err)}\n`);
  if (process.env.SVC_DEBUG && e?.stack) io.stderr.write(e.stack + '\n');
  return 1;
}

const invokedDirectly = (() => {
  try {
    return Boolean(process.argv[1]) && realpathSync(process.argv[1]!) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
