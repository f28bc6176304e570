import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

export interface CachedModule<T> {
  exports: T;
  /** Whether V8 took the cache file (false: there was none, or it was made by another Node, V8 or flags). */
  cacheUsed: boolean;
  /**
   * Writes V8's compiled code for every function run so far, when the cache was missing or refused
   * (call it once the work worth caching has run). False, never a throw, when it cannot be written.
   */
  saveCache(): boolean;
}

/** How a bundled file reaches an ES module (a library loaded on first use): passed in, see below. */
export type ImportModule = (specifier: string) => Promise<unknown>;

/**
 * Runs a CommonJS-shaped file (the daemon's esbuild bundle, scripts/build-daemon.mjs) with V8's
 * code cache: Node 20 has no compile cache for modules (module.enableCompileCache is Node 22), and
 * compiling the bundle and the functions a start runs costs about a quarter of the daemon's start
 * (docs/performance.md, "Fourth pass"). vm.Script takes and makes that cache. V8 refuses a cache made
 * by another V8 version or with other flags (then the start compiles as usual and writes a new one);
 * it does not compare the source text, so the caller names the cache after the file's content hash.
 * A dynamic import() inside a vm.Script needs a flag on Node 20, so the file gets `__svcImport`, the
 * caller's own import(), instead (the build replaces the bundle's import() calls with it).
 */
export function runWithCodeCache<T>(file: string, cacheFile: string, importModule: ImportModule): CachedModule<T> {
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet (the first start after a build): compile from the source.
  }
  // The wrapper is on the file's first line, so line numbers in stack traces are the file's.
  const wrapper = `(function (exports, require, module, __filename, __dirname, __svcImport) {${source}\n})`;
  const script = new Script(wrapper, { filename: file, cachedData });
  const module = { exports: {} as T };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), importModule);
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: module.exports,
    cacheUsed,
    saveCache: () => {
      if (cacheUsed) return false;
      // A temp file renamed into place: a daemon starting meanwhile reads the old cache or the new, never half of one.
      const temp = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
        return true;
      } catch {
        // A read-only install (a global npm prefix owned by root): every start compiles, nothing breaks.
        rmSync(temp, { force: true });
        return false;
      }
    },
  };
}
