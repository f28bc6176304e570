/**
 * `--json id,name`: keeps only the named fields, of an object or of each element of an array
 * (like `gh … --json`). A name absent from a row is left out of it, not invented as null. An
 * answer that wraps its list (`{ "keys": [...] }`, `svc api`) and has none of the fields itself
 * is read as that list, rather than printed as `{}`.
 */
export function pickFields(value: unknown, fields: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => pickFields(v, fields));
  if (!value || typeof value !== 'object') return value;
  const row = value as Record<string, unknown>;
  const lists = Object.values(row).filter(Array.isArray);
  if (!fields.some((f) => f in row) && lists.length === 1) return pickFields(lists[0], fields);
  return Object.fromEntries(fields.filter((f) => f in row).map((f) => [f, row[f]]));
}
