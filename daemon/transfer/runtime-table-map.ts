import type { Space, Table } from '../store/engine/types.js';
import { defineIdempotencyTable } from '../store/runtime/idempotency-records.js';
import { defineRuntimeTables, type RuntimeTables } from '../store/runtime/tables.js';
import type { RuntimeTableName } from './archive-tables.js';

/**
 * Each table of a Company's runtime space and its name in an archive (null: not moved). Typed over
 * every key of RuntimeTables, so a table added there does not compile here until it is given a
 * place in the archive: a new table can never be silently left behind by a move.
 */
const ARCHIVE_NAMES: Record<keyof RuntimeTables, RuntimeTableName | null> = {
  agents: 'agents',
  sessions: 'sessions',
  messages: 'messages',
  quests: 'quests',
  configured: 'configured_events',
  firings: 'firings',
  retries: 'retries',
  ticks: 'schedule_ticks',
  channels: 'channels',
  questions: 'questions',
  deliveries: 'webhook_deliveries',
  // Which documents of an earlier release were imported: about the folder, not the Company.
  meta: null,
  // Debounces waiting for their quiet: seconds to minutes of state, left behind as PostgreSQL's svc_rt_debounces is.
  debounces: null,
  settings: 'settings',
  failures: 'failures',
};

/** The runtime tables of `space` by archive name, in the archive's order. */
export function runtimeTablesOf(space: Space): Map<RuntimeTableName, Table<object>> {
  const t = defineRuntimeTables(space);
  const byName = new Map<RuntimeTableName, Table<object>>();
  for (const [key, name] of Object.entries(ARCHIVE_NAMES))
    if (name) byName.set(name, t[key as keyof RuntimeTables] as unknown as Table<object>);
  byName.set('idempotency_keys', defineIdempotencyTable(space) as unknown as Table<object>);
  return byName;
}
