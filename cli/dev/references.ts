import { UsageError } from '../errors.js';
import type { SeedKind } from './seed-file.js';

/** What seeding made so far, by kind and local name: the fields a `${kind.name.field}` may read. */
export type Made = Record<SeedKind, Record<string, Record<string, unknown>>>;

export const emptyMade = (): Made => ({
  users: {},
  companies: {},
  members: {},
  keys: {},
  agents: {},
  sessions: {},
  events: {},
});

const REF = /\$\{([a-z]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_.]+)\}/g;
const WHOLE = new RegExp(`^${REF.source}$`);

/**
 * Replaces `${users.ada.id}`-style references in every string of `value`, deeply. A string that is
 * exactly one reference takes the referenced value with its JSON type; a reference inside longer
 * text is inserted as text (the same rule as `{{event.…}}` in tool calls). A reference to something
 * not made (yet) is a usage error naming it, so a typo never reaches the daemon as literal text.
 */
export function resolveReferences(value: unknown, made: Made, where: string): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookUp(made, whole[1]!, whole[2]!, whole[3]!, where);
    return value.replace(REF, (_m, kind: string, name: string, field: string) =>
      String(lookUp(made, kind, name, field, where)),
    );
  }
  if (Array.isArray(value)) return value.map((v) => resolveReferences(v, made, where));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveReferences(v, made, where)]));
  return value;
}

function lookUp(made: Made, kind: string, name: string, field: string, where: string): unknown {
  const ref = `\${${kind}.${name}.${field}}`;
  const map = (made as Record<string, Record<string, Record<string, unknown>>>)[kind];
  if (!map) throw new UsageError(`${where}: ${ref} names no kind '${kind}'`);
  const entry = map[name];
  if (!entry) throw new UsageError(`${where}: ${ref} refers to ${kind}.${name}, which is not seeded before this point`);
  let v: unknown = entry;
  for (const part of field.split('.'))
    v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  if (v === undefined) throw new UsageError(`${where}: ${ref}: ${kind}.${name} has no field '${field}'`);
  return v;
}

/**
 * A plain-name link (`"owner": "ada"`, `"company": "acme"`): the local name of something made
 * earlier, or its id (so a resolved `${companies.acme.id}` works too).
 */
export function linked(made: Made, kind: SeedKind, value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'string' || !value)
    throw new UsageError(
      `${where}: must name one of the seeded ${kind} (${Object.keys(made[kind]).join(', ') || 'none'})`,
    );
  const entry = made[kind][value] ?? Object.values(made[kind]).find((e) => e.id === value);
  if (!entry)
    throw new UsageError(
      `${where}: '${value}' is not among the seeded ${kind} (${Object.keys(made[kind]).join(', ') || 'none'})`,
    );
  return entry;
}
