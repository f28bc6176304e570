#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CliIO, GlobalOptions } from './context.js';
import { commandWords, commandsToLoad, normalizeArgv } from './argv.js';
import { bundleReportError, tryFastBundle } from './fast-bundle.js';
import { processIo, runAsProcess } from './process-run.js';

/** The bundle (scripts/build-cli.mjs) writes the version in at build time: `svc --version` then reads no file. */
declare const SVC_BUNDLED_VERSION: string | undefined;
const bundledVersion = typeof SVC_BUNDLED_VERSION === 'string' ? SVC_BUNDLED_VERSION : undefined;
const version = async () => bundledVersion ?? (await import('../shared/version.js')).VERSION;
const loadReportError = async () => (await import('./report-error.js')).reportError;

export interface MainOptions {
  io?: CliIO;
  env?: Record<string, string | undefined>;
  /**
   * Which paths a line may take: 'fast' (the default) tries the fast bundle (fast-bundle.ts), then
   * the path without commander, then commander; 'esm' skips the fast bundle (the svc bin, bin.ts,
   * tried it already); 'commander' sends every line through commander (tests compare the paths).
   */
  path?: 'fast' | 'esm' | 'commander';
}

/**
 * Runs the CLI and returns the exit code. The one place where errors become exit codes:
 * usage 2, auth required 4, not found / failed 1, cancelled 130.
 */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const io = options.io ?? processIo();
  const env = options.env ?? process.env;
  const path = options.path ?? 'fast';
  // `svc --version` answers before anything else is loaded (in the bundle: before any other file is read).
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    io.stdout.write(`${await version()}\n`);
    return 0;
  }
  if (path === 'fast') {
    const code = await tryFastBundle(argv, io, env, await version());
    if (code !== null) return code;
  }
  try {
    const [{ createCliContext }, { runWithoutCommander, buildProgram }, VERSION] = await Promise.all([
      import('./context.js'),
      import('./program.js'),
      version(),
    ]);
    const makeCtx = (globals: GlobalOptions) => createCliContext({ io, env, globals });
    // A bare `svc` shows the help on stdout and succeeds, as `gh` does.
    const args = argv.length === 0 ? ['--help'] : normalizeArgv(argv);
    const load = commandsToLoad(args);
    // A plainly well-formed line runs without commander; help, usage errors and completion go through it.
    if (load !== '*' && path !== 'commander' && (await runWithoutCommander(args, commandWords(args), makeCtx, VERSION)))
      return 0;
    const program = await buildProgram(makeCtx, io, VERSION, load);
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (err) {
    return (await loadReportError())(err, io, env);
  }
}

/** An error that escaped a command: reported by the fast bundle's own copy if it ran the command. */
export async function reportUncaught(err: unknown, io: CliIO): Promise<number> {
  return (bundleReportError() ?? (await loadReportError()))(err, io, process.env);
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

if (invokedDirectly) runAsProcess((argv) => main(argv), reportUncaught);
