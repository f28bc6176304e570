import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;
const HEADER = 8;
const STALE_MS = 30 * 24 * 3600 * 1000;
/**
 * zlib and os are required when used, not imported: main.js holds this module (through
 * fast-bundle.ts), and `svc --version` must not pay for loading them (zlib alone is about 1 ms).
 */
const builtin = createRequire(import.meta.url);
const crc32 = (data: Buffer) => (builtin('node:zlib') as typeof import('node:zlib')).crc32(data);

/** $SVC_CACHE_DIR, $XDG_CACHE_HOME/svc, ~/.cache/svc: only a cache, safe to delete at any time. */
function cacheRoot(env: Env): string {
  if (env.SVC_CACHE_DIR) return env.SVC_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'svc');
  return join(env.HOME || (builtin('node:os') as typeof import('node:os')).homedir(), '.cache', 'svc');
}

/**
 * V8's compiled code for the fast bundle, one file per command (each holds the functions that
 * command ran), in a folder named after the bundle's hash and V8's version: a new build or Node
 * never reads an old cache (V8 itself refuses one made under other flags). The file starts with the
 * payload's length and CRC-32: V8 checks only a header in release builds, and fed damaged code it
 * could crash, so a file that fails either check is ignored and rewritten. Any error reading or
 * writing just means compiling anew.
 */
export function cachePaths(env: Env, bundleHash: string, key: string) {
  const root = join(cacheRoot(env), 'code-cache');
  const dir = join(root, `${bundleHash}-${process.versions.v8}-${process.arch}`);
  return { root, dir, file: join(dir, `${key.replace(/[^a-z0-9-]+/g, '-')}.bin`) };
}

/**
 * The cached code, or undefined. V8 runs what the file holds, so only a file this user owns and
 * nobody else can write is read (a cache folder under /tmp or shared by mistake cannot inject
 * code); then its length and CRC-32 must match the header.
 */
export function readCache(file: string): Buffer | undefined {
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

export function writeCache(paths: ReturnType<typeof cachePaths>, data: Buffer): void {
  try {
    mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
    const header = Buffer.alloc(HEADER);
    header.writeUInt32LE(data.length, 0);
    header.writeUInt32LE(crc32(data), 4);
    // Written beside and renamed: a reader never sees half a file.
    const tmp = `${paths.file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([header, data]), { mode: 0o600 });
    renameSync(tmp, paths.file);
    // Other builds' folders go once unused for a month (two installs in turn must not evict each other).
    for (const other of readdirSync(paths.root)) {
      const dir = join(paths.root, other);
      if (dir !== paths.dir && Date.now() - statSync(dir).mtimeMs > STALE_MS)
        rmSync(dir, { recursive: true, force: true });
    }
  } catch {
    // An unwritable cache folder costs the next start a compile, nothing else.
  }
}
