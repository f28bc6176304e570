import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Env = Record<string, string | undefined>;
const HEADER = 8;
const STALE_MS = 30 * 24 * 3600 * 1000;
/**
 * vm, zlib and os are required when used, not imported: the CLI's entry holds this module, and
 * `svc --version` must not pay for loading them (zlib alone is about 1 ms).
 */
const builtin = createRequire(import.meta.url);
const crc32 = (data: Buffer) => (builtin('node:zlib') as typeof import('node:zlib')).crc32(data);

/** $SVC_CACHE_DIR, $XDG_CACHE_HOME/svc, ~/.cache/svc: only a cache, safe to delete at any time. */
export function resolveCacheDir(env: Env): string {
  if (env.SVC_CACHE_DIR) return env.SVC_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'svc');
  return join(env.HOME || (builtin('node:os') as typeof import('node:os')).homedir(), '.cache', 'svc');
}

export interface CachedScript<T> {
  /** What the script put in `module.exports`. */
  exports: T;
  /** Writes V8's code for the script, with what it compiled so far, unless a good cache was used. */
  saveCache(): void;
}

/**
 * Runs a CommonJS script written as one function expression,
 * `(function (exports, require, module, __svcImport, __svcMetaUrl) {…})` (how scripts/ build
 * bundles for it), compiled with a V8 code cache: the script's own names for import() of packages
 * and for import.meta.url are given `importModule` and the script's file URL. Node 20 has no code
 * cache for ES modules; this is the v8-compile-cache way, for one file.
 *
 * The cache lives in `<cache dir>/code-cache/<build>-<V8 version>-<arch>-<flags>/<name>.bin`
 * (`build`: a hash of the script, so a new build or Node never reads an old one; `flags`: a CRC of
 * Node's flags, under which V8 would refuse it). V8 runs what the file holds, so it is read only if this user owns it and
 * nobody else can write it (a cache folder under /tmp or shared by mistake cannot inject code),
 * and only if the payload's length and CRC-32 match the header (V8 checks only its own header in
 * release builds; fed damaged code it could crash). Any other file, or none, means compiling
 * anew; a folder that cannot be written costs a compile, nothing else. SVC_CODE_CACHE=off: no cache.
 */
export function runCachedScript<T>(options: {
  file: string;
  env: Env;
  build: string;
  name: string;
  require: NodeJS.Require;
  importModule: (specifier: string) => Promise<unknown>;
}): CachedScript<T> {
  const root = join(resolveCacheDir(options.env), 'code-cache');
  // Node's flags (NODE_OPTIONS, execArgv) are part of the name: V8 refuses a cache made under other
  // flags, and two ways of starting node in turn must not rewrite each other's file at every start.
  const flags = crc32(Buffer.from(`${process.execArgv.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}`)).toString(16);
  const dir = join(root, `${options.build}-${process.versions.v8}-${process.arch}-${flags}`);
  const cacheFile = join(dir, `${options.name.replace(/[^a-z0-9-]+/g, '-')}.bin`);
  const useCache = options.env.SVC_CODE_CACHE !== 'off';
  const cachedData = useCache ? readCache(cacheFile) : undefined;
  const { Script } = builtin('node:vm') as typeof import('node:vm');
  const script = new Script(readFileSync(options.file, 'utf8'), { filename: options.file, cachedData });
  const module = { exports: {} as T };
  const url = pathToFileURL(options.file).href;
  script.runInThisContext()(module.exports, options.require, module, options.importModule, url);
  return {
    exports: module.exports,
    saveCache: () => {
      if (useCache && (!cachedData || script.cachedDataRejected))
        writeCache(root, dir, cacheFile, script.createCachedData());
    },
  };
}

function readCache(file: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const st = fstatSync(fd);
    if ((process.getuid && st.uid !== process.getuid()) || st.mode & 0o022 || st.size < HEADER) return;
    const raw = Buffer.allocUnsafe(st.size);
    if (readSync(fd, raw, 0, st.size, 0) !== st.size) return;
    const payload = raw.subarray(HEADER);
    if (raw.readUInt32LE(0) !== payload.length || raw.readUInt32LE(4) !== crc32(payload)) return;
    return payload;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeCache(root: string, dir: string, file: string, data: Buffer): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const header = Buffer.alloc(HEADER);
    header.writeUInt32LE(data.length, 0);
    header.writeUInt32LE(crc32(data), 4);
    // Written beside and renamed: a reader never sees half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([header, data]), { mode: 0o600 });
    renameSync(tmp, file);
    // Other builds' folders go once unused for a month (two installs in turn must not evict each other).
    for (const other of readdirSync(root)) {
      const old = join(root, other);
      if (old !== dir && Date.now() - statSync(old).mtimeMs > STALE_MS) rmSync(old, { recursive: true, force: true });
    }
  } catch {
    // An unwritable cache folder costs the next start a compile, nothing else.
  }
}
