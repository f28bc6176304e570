import { encodeLine, fingerprintOf } from '../engine/record-text.js';
import type { TableState } from '../engine/table-state.js';
import type { StoredLines } from '../engine/types.js';
import type { Rows } from './entry-format.js';
import type { CapturedTable } from './snapshot-file.js';

/**
 * Every table as a snapshot captures it: O(records) pointer copies, no encoding (records are
 * frozen, stored lines immutable, so holding them is a consistent view). Records still unread are
 * positions in `source`: the snapshot copies their lines as they are.
 */
export function captureTables(
  tables: Map<string, TableState<object>>,
  rows: Rows,
  source: StoredLines | null,
  fingerprints: Map<string, string>,
): CapturedTable[] {
  const out: CapturedTable[] = [];
  for (const [name, state] of tables) {
    const { ids, values } = state.held();
    const encode = (id: string, record: object) => encodeLine(state.spec, id, record);
    out.push({ name, ids, values, stored: source, fingerprint: fingerprintOf(state.spec), encode });
  }
  // Tables no code defined in this run: their lines go back as read, objects (replayed) without keys.
  for (const [name, table] of rows) {
    const ids = Array.from(table.keys());
    const values = Array.from(table.values());
    const encode = (id: string, record: object) => JSON.stringify({ table: name, id, record });
    out.push({ name, ids, values, stored: source, fingerprint: fingerprints.get(name), encode });
  }
  return out;
}
