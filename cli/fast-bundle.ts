import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runCachedScript } from '../shared/code-cache.js';
import { commandWords, normalizeArgv } from './argv.js';
import type { CliIO } from './context.js';
import type { reportError } from './report-error.js';

type Env = Record<string, string | undefined>;
/** What dist/cli/fast.cjs exports (cli/fast-main.ts). */
interface FastBundle {
  runFast(argv: string[], io: CliIO, env: Env, version: string): Promise<number | null>;
  reportError: typeof reportError;
}

/** The commands the fast bundle may run (comma-separated) and its hash, written in by scripts/build-cli.mjs. */
declare const SVC_FAST_COMMANDS: string | undefined;
declare const SVC_FAST_BUNDLE_HASH: string | undefined;
const fastCommands = new Set(typeof SVC_FAST_COMMANDS === 'string' ? SVC_FAST_COMMANDS.split(',') : []);
const bundleHash = typeof SVC_FAST_BUNDLE_HASH === 'string' ? SVC_FAST_BUNDLE_HASH : undefined;
// main.js and the svc bin hold this module; the bundle sits beside both (tsc's copy has no bundle).
const BUNDLE_URL = new URL('../cli/fast.cjs', import.meta.url);
// The bundle's require: it resolves from dist/cli/, where the bundle is.
const bundleRequire = createRequire(import.meta.url);
let loaded: FastBundle | undefined;

/** The fast bundle's reportError once it ran: errors made inside it are its own classes. */
export const bundleReportError = () => loaded?.reportError;

/**
 * Runs a command line in dist/cli/fast.cjs, compiled with that command's code cache
 * (shared/code-cache.ts; one cache file per command, holding what that command compiled): the
 * number is its exit code. Null when the bundle may not run it (not in its list, or it needs
 * commander: help, a usage error) or could not be loaded; nothing has run then, and the caller goes
 * on to the ESM bundle (main.ts).
 */
export async function tryFastBundle(argv: string[], io: CliIO, env: Env, version: string): Promise<number | null> {
  const [noun, verb] = commandWords(normalizeArgv(argv));
  const name = fastCommands.has(`${noun} ${verb}`)
    ? `${noun} ${verb}`
    : fastCommands.has(noun ?? '')
      ? noun
      : undefined;
  if (!name || !bundleHash) return null;
  let bundle: ReturnType<typeof runCachedScript<FastBundle>>;
  try {
    bundle = runCachedScript<FastBundle>({
      file: fileURLToPath(BUNDLE_URL),
      env,
      build: bundleHash,
      name,
      require: bundleRequire,
      importModule: (s) => import(s),
    });
  } catch (err) {
    if (env.SVC_DEBUG) io.stderr.write(`svc: fast bundle not used: ${(err as Error).message}\n`);
    return null;
  }
  loaded = bundle.exports;
  // The run's own errors are reported inside the bundle.
  const code = await loaded.runFast(argv, io, env, version);
  if (code === null) loaded = undefined;
  else bundle.saveCache();
  return code;
}
