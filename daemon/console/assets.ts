import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

/**
 * Where `npm run build` puts the bundled console (scripts/build-console.mjs): dist/console-static/,
 * two folders up from tsc's dist/daemon/console/, one up from the daemon bundle's dist/daemon-bundle/.
 */
export const CONSOLE_DIR = fileURLToPath(
  new URL(
    /\/daemon-bundle\/[^/]+$/.test(import.meta.url) ? '../console-static/' : '../../console-static/',
    import.meta.url,
  ),
);

export interface ConsoleAsset {
  body: Buffer;
  gzip: Buffer;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * The console's files, read once into memory with their gzip form: the first page then costs a
 * map lookup, not a disk read. Null when the console was not built (tsc alone).
 */
export function loadConsoleAssets(dir = CONSOLE_DIR): Map<string, ConsoleAsset> | null {
  if (!existsSync(`${dir}/index.html`)) return null;
  const assets = new Map<string, ConsoleAsset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (!type || name.endsWith('.map')) continue;
    const body = readFileSync(`${dir}/${name}`);
    assets.set(name, { body, gzip: gzipSync(body, { level: 9 }), type });
  }
  return assets;
}
