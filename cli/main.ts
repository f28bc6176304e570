#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { ContextFactory } from './command.js';
import type { CliIO } from './context.js';
import { commandsToLoad, normalizeArgv } from './argv.js';

/** The bundle (scripts/build-cli.mjs) writes the version in at build time: `svc --version` then reads no file. */
declare const SVC_BUNDLED_VERSION: string | undefined;
const bundledVersion = typeof SVC_BUNDLED_VERSION === 'string' ? SVC_BUNDLED_VERSION : undefined;
const version = async () => bundledVersion ?? (await import('../shared/version.js')).VERSION;
const loadReportError = async () => (await import('./report-error.js')).reportError;

export interface MainOptions {
  io?: CliIO;
  env?: Record<string, string | undefined>;
}

/**
 * Builds the program: global flags, then the commands from cli/commands/ (`load`: which to import
 * in full; the rest are names and descriptions only, so a command loads only what it runs).
 */
export async function buildProgram(
  makeCtx: ContextFactory,
  io: CliIO,
  load: Set<string> | '*' = '*',
): Promise<Command> {
  const [{ Command }, { registerCommands }, VERSION] = await Promise.all([
    import('commander'),
    import('./commands/index.js'),
    version(),
  ]);
  const program = new Command('svc')
    .description('svc: log in, manage access keys, follow events and relay MCP for the agent platform')
    .version(VERSION, '-v, --version')
    .option('--json [fields]', 'print machine-readable JSON (optionally only these comma-separated fields)')
    .option('--url <url>', 'platform URL (default $SVC_URL, the profile, a local daemon, or http://127.0.0.1:7878)')
    .option('--profile <name>', 'the profile to use (default $SVC_PROFILE, else the one chosen with svc profile use)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
    })
    .exitOverride();
  await registerCommands(program, makeCtx, load);
  // Subcommands inherit exitOverride and output only when set before they are added, so set them again.
  const inherit = (cmd: Command) => {
    cmd
      .exitOverride()
      .configureOutput({ writeOut: (s) => void io.stdout.write(s), writeErr: (s) => void io.stderr.write(s) });
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
  // `svc --version` answers before anything else is loaded (in the bundle: before any other file is read).
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    io.stdout.write(`${await version()}\n`);
    return 0;
  }
  try {
    const { createCliContext } = await import('./context.js');
    const args = normalizeArgv(argv);
    const program = await buildProgram((globals) => createCliContext({ io, env, globals }), io, commandsToLoad(args));
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (err) {
    return (await loadReportError())(err, io, env);
  }
}

const invokedDirectly = (() => {
  try {
    const self = fileURLToPath(import.meta.url);
    const bin = process.argv[1];
    // The plain comparison first: realpath (for a symlinked bin, e.g. npm's) costs a syscall per folder.
    return Boolean(bin) && (bin === self || realpathSync(bin as string) === self);
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  // A reader that went away (`svc events list | head -1`) is a normal end, not an error: exit 0, quietly.
  const quietOnClosedPipe = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  };
  process.stdout.on('error', quietOnClosedPipe);
  process.stderr.on('error', quietOnClosedPipe);
  // Whatever escapes a command still ends as one line, never a stack trace (unless SVC_DEBUG).
  const last = async (err: unknown) => {
    if ((err as NodeJS.ErrnoException)?.code === 'EPIPE') process.exit(0);
    const reportError = await loadReportError();
    process.exit(
      reportError(err, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }, process.env),
    );
  };
  process.on('uncaughtException', last);
  process.on('unhandledRejection', last);
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
