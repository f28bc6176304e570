import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Writes `NAME=value` lines into an env file (`.env.local`), keeping every other line as it was
 * and replacing only the names given. Mode 0600: the values are secret keys.
 */
export function mergeEnvFile(file: string, values: Record<string, string>): void {
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  if (lines.at(-1) === '') lines.pop();
  const left = new Map(Object.entries(values));
  const merged = lines.map((line) => {
    const name = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1];
    if (name === undefined || !left.has(name)) return line;
    const value = left.get(name)!;
    left.delete(name);
    return `${name}=${value}`;
  });
  for (const [name, value] of left) merged.push(`${name}=${value}`);
  writeFileSync(`${file}.tmp`, merged.join('\n') + '\n', { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** The variable a seeded key's secret is written to: its `env` field, else SVC_KEY_<NAME>. */
export const envNameOf = (name: string, declared: unknown): string =>
  typeof declared === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(declared)
    ? declared
    : `SVC_KEY_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
