import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FailedError } from '../errors.js';

/** A client's config file read as a JSON object (missing: empty). JSONC or anything else is refused, never overwritten. */
export function readConfigJson(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new FailedError(
      `${file} is not plain JSON (${(err as Error).message}); it was left as it is`,
      'remove comments or trailing commas, or add the entry by hand: --print shows it',
    );
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new FailedError(`${file} does not hold a JSON object; it was left as it is`);
  return value as Record<string, unknown>;
}

/**
 * Writes the file whole (temp file, then rename), after copying the old one to `<file>.<stamp>.bak`
 * so a client config that mattered to someone can always be put back. Keeps the old file's mode.
 */
export function writeConfigJson(file: string, value: Record<string, unknown>, stamp: string): string | null {
  mkdirSync(dirname(file), { recursive: true });
  let backup: string | null = null;
  let mode = 0o600;
  if (existsSync(file)) {
    backup = `${file}.${stamp}.bak`;
    copyFileSync(file, backup);
    mode = statSync(file).mode & 0o777;
  }
  writeFileSync(`${file}.tmp`, JSON.stringify(value, null, 2) + '\n', { mode });
  renameSync(`${file}.tmp`, file);
  return backup;
}
