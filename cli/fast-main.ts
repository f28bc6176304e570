import { commandWords, commandsToLoad, normalizeArgv } from './argv.js';
import { createCliContext, type CliIO, type GlobalOptions } from './context.js';
import { runWithoutCommander } from './program.js';
import { reportError } from './report-error.js';

/**
 * Entry of the fast bundle (scripts/build-cli.mjs → dist/cli/fast.cjs): the same modules as the
 * ESM bundle, as one CommonJS script, so that cli/fast-bundle.ts can compile it with a V8 code
 * cache (Node 20 has none for ES modules). It runs a command line only through the path without
 * commander (program.ts); anything that needs commander is answered null, before anything ran, and
 * main.ts runs it through the ESM bundle instead.
 */
export async function runFast(
  argv: string[],
  io: CliIO,
  env: Record<string, string | undefined>,
  version: string,
): Promise<number | null> {
  try {
    const args = normalizeArgv(argv);
    // `svc completion` prints commander's whole tree: always commander's path (main.ts).
    if (commandsToLoad(args) === '*') return null;
    const makeCtx = (globals: GlobalOptions) => createCliContext({ io, env, globals });
    return (await runWithoutCommander(args, commandWords(args), makeCtx, version)) ? 0 : null;
  } catch (err) {
    return reportError(err, io, env);
  }
}

/** Errors made inside this bundle are its own classes: main.ts reports a late one with this copy. */
export { reportError };
