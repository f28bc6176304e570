import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (two folders up from dist/shared/). */
export const VERSION: string = (() => {
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      return JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')).version as string;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
})();
