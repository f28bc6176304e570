#!/usr/bin/env node
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CliIO, GlobalOptions } from './context.js';
import { commandWords, commandsToLoad, normalizeArgv } from './argv.js';
import { runFastBundle } from './fast-bundle.js';

/** The bundle (scripts/build-cli.mjs) writes the version in at build time: `svc --version` then reads no file. */
declare const SVC_BUNDLED_VERSION: string | undefined;
const bundledVersion = typeof SVC_BUNDLED_VERSION === 'string' ? SVC_BUNDLED_VERSION : undefined;
const version = async () => bundledVersion ?? (await import('../shared/version.js')).VERSION;
/** The commands the fast bundle may run (comma-separated, scripts/build-cli.mjs), and its hash, which names its code cache. */
declare const SVC_FAST_COMMANDS: string | undefined;
declare const SVC_FAST_BUNDLE_HASH: string | undefined;
const fastCommands = new Set(typeof SVC_FAST_COMMANDS === 'string' ? SVC_FAST_COMMANDS.split(',') : []);
const fastBundleHash = typeof SVC_FAST_BUNDLE_HASH === 'string' ? SVC_FAST_BUNDLE_HASH : undefined;
const loadReportError = async () => (await import('./report-error.js')).reportError;
/** Once the fast bundle runs, errors are its own classes, so one that escapes it is reported with its own copy. */
let bundledReportError: typeof import('./report-error.js').reportError | undefined;

export interface MainOptions {
  io?: CliIO;
  env?: Record<string, string | undefined>;
  /** 'commander': every line through commander, as before the fast path existed (tests compare the two). */
  path?: 'fast' | 'commander';
}

/** The process's streams; stdin is made only when a command reads it (making it costs ~2 ms at every start). */
const processIo = (): CliIO => ({
  stdout: process.stdout,
  stderr: process.stderr,
  get stdin() {
    return process.stdin;
  },
});

/** The fast bundle's name for a command line: `keys list` or `whoami`, if it may run it. */
function fastCommandOf([noun, verb]: string[]): string | undefined {
  const pair = `${noun} ${verb}`;
  return fastCommands.has(pair) ? pair : noun !== undefined && fastCommands.has(noun) ? noun : undefined;
}

/** The fast bundle (fast-bundle.ts), or null: the line needs commander, or the bundle could not be loaded. */
async function runFast(key: string, hash: string, run: Parameters<typeof runFastBundle>[2]) {
  try {
    // The run's own errors are reported inside the bundle; what lands here is a bundle that did not load.
    return await runFastBundle(key, hash, run, (b) => {
      bundledReportError = b.reportError;
    });
  } catch (err) {
    if (run.env.SVC_DEBUG) run.io.stderr.write(`svc: fast bundle not used: ${(err as Error).message}\n`);
    bundledReportError = undefined;
    return null;
  }
}

/**
 * Runs the CLI and returns the exit code. The one place where errors become exit codes:
 * usage 2, auth required 4, not found / failed 1, cancelled 130.
 */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const io = options.io ?? processIo();
  const env = options.env ?? process.env;
  // `svc --version` answers before anything else is loaded (in the bundle: before any other file is read).
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    io.stdout.write(`${await version()}\n`);
    return 0;
  }
  const args = normalizeArgv(argv);
  const fast = options.path === 'commander' ? undefined : fastCommandOf(commandWords(args));
  if (fast && fastBundleHash) {
    const code = await runFast(fast, fastBundleHash, { argv, io, env, version: await version() });
    if (code !== null) return code;
    bundledReportError = undefined;
  }
  try {
    const [{ createCliContext }, { runWithoutCommander, buildProgram }, VERSION] = await Promise.all([
      import('./context.js'),
      import('./program.js'),
      version(),
    ]);
    const makeCtx = (globals: GlobalOptions) => createCliContext({ io, env, globals });
    const load = commandsToLoad(args);
    // A plainly well-formed line runs without commander; help, usage errors and completion go through it.
    if (
      load !== '*' &&
      options.path !== 'commander' &&
      (await runWithoutCommander(args, commandWords(args), makeCtx, VERSION))
    )
      return 0;
    const program = await buildProgram(makeCtx, io, VERSION, load);
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
    const reportError = bundledReportError ?? (await loadReportError());
    process.exit(reportError(err, processIo(), process.env));
  };
  process.on('uncaughtException', last);
  process.on('unhandledRejection', last);
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
