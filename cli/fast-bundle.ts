import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cachePaths, readCache, writeCache } from './code-cache.js';
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
// vm is required when used (`svc --version` must not load it). The same require serves the bundle:
// it resolves from dist/cli/, where the bundle is.
const builtin = createRequire(import.meta.url);
let loaded: FastBundle | undefined;

/** The fast bundle's reportError once it ran: errors made inside it are its own classes. */
export const bundleReportError = () => loaded?.reportError;

/**
 * Runs a command line in dist/cli/fast.cjs, compiled with that command's code cache: the number is
 * its exit code. Null when the bundle may not run it (not in its list, or it needs commander: help,
 * a usage error) or could not be loaded; nothing has run then, and the caller goes on to the ESM
 * bundle (main.ts).
 */
export async function tryFastBundle(argv: string[], io: CliIO, env: Env, version: string): Promise<number | null> {
  const [noun, verb] = commandWords(normalizeArgv(argv));
  const key = fastCommands.has(`${noun} ${verb}`) ? `${noun} ${verb}` : fastCommands.has(noun ?? '') ? noun : undefined;
  if (!key || !bundleHash) return null;
  const paths = cachePaths(env, bundleHash, key);
  const useCache = env.SVC_CODE_CACHE !== 'off';
  const cachedData = useCache ? readCache(paths.file) : undefined;
  let script: import('node:vm').Script;
  try {
    const filename = fileURLToPath(BUNDLE_URL);
    // The file is a function (scripts/build-fast-bundle.mjs): the CommonJS wrapper's names, plus the
    // two things an ES module has and a script lacks, import() of packages and import.meta.url.
    const { Script } = builtin('node:vm') as typeof import('node:vm');
    script = new Script(readFileSync(filename, 'utf8'), { filename, cachedData });
    const module = { exports: {} as FastBundle };
    const load = script.runInThisContext();
    load(module.exports, builtin, module, (s: string) => import(s), BUNDLE_URL.href);
    loaded = module.exports;
  } catch (err) {
    if (env.SVC_DEBUG) io.stderr.write(`svc: fast bundle not used: ${(err as Error).message}\n`);
    return null;
  }
  // The run's own errors are reported inside the bundle.
  const code = await loaded.runFast(argv, io, env, version);
  if (code === null) loaded = undefined;
  else if (useCache && (!cachedData || script.cachedDataRejected)) writeCache(paths, script.createCachedData());
  return code;
}
