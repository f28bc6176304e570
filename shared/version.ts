import { readFileSync } from 'node:fs';

/** The CLI's bundles (scripts/build-cli.mjs) write the version in: no file to read at start. */
declare const SVC_BUNDLED_VERSION: string | undefined;

/** The package version, read once from package.json (two folders up from dist/shared/). */
export const VERSION: string = (() => {
  if (typeof SVC_BUNDLED_VERSION === 'string') return SVC_BUNDLED_VERSION;
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      return JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')).version as string;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
})();
