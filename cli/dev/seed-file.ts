import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../errors.js';

/** The kinds a seed file holds, in the order they are made: each may refer to those before it. */
export const SEED_KINDS = ['users', 'companies', 'members', 'keys', 'agents', 'sessions', 'events'] as const;
export type SeedKind = (typeof SEED_KINDS)[number];

/** One map per kind, keyed by a local name (docs/dev-loop.md); the entries are checked as they are made. */
export type SeedFile = Partial<Record<SeedKind, Record<string, Record<string, unknown>>>>;

/** Reads a seed (or scenario) file: JSON, or YAML when its name ends in .yaml or .yml; its top level must be an object. */
export function readDataFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const yaml = /\.ya?ml$/i.test(file);
  let value: unknown;
  try {
    // YAML's own limits on aliases keep a small file from expanding into a huge one.
    value = yaml ? parseYaml(text, { prettyErrors: false }) : JSON.parse(text);
  } catch (err) {
    const first = (err as Error).message.split('\n')[0];
    throw new UsageError(`${file} is not ${yaml ? 'YAML' : 'JSON'}: ${first}`);
  }
  if (!isObject(value))
    throw new UsageError(`${file}: the top level must be ${yaml ? 'a YAML mapping' : 'a JSON object'}`);
  return value;
}

/** The seed maps of a parsed file, checked for shape; `extra` names top-level keys allowed besides the kinds. */
export function seedOf(value: Record<string, unknown>, where: string, extra: string[] = []): SeedFile {
  const seed: SeedFile = {};
  for (const [key, map] of Object.entries(value)) {
    if (extra.includes(key)) continue;
    if (!(SEED_KINDS as readonly string[]).includes(key))
      throw new UsageError(`${where}: unknown key '${key}' (a seed holds ${SEED_KINDS.join(', ')})`);
    if (!isObject(map)) throw new UsageError(`${where}: '${key}' must be an object keyed by local names`);
    for (const [name, entry] of Object.entries(map)) {
      if (!isObject(entry)) throw new UsageError(`${where}: ${key}.${name} must be an object`);
    }
    seed[key as SeedKind] = map as Record<string, Record<string, unknown>>;
  }
  return seed;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
