import type { Clock } from '../../clock.js';
import { createArrayEventLog } from './array-log.js';
import type { EventLog } from './types.js';

export type { EventLog, LogQuery, NewEventRow } from './types.js';

/**
 * The event log's entry points. In this branch both are the array log: `openEventLog` keeps
 * nothing beyond the process. The storage issue replaces this file at merge with the JSON Lines
 * implementation (segments, group commit, indexes, recovery) behind the same two exports.
 */
export async function openEventLog(_dir: string, options: { clock: Clock }): Promise<EventLog> {
  return createArrayEventLog(options);
}

export function createMemoryEventLog(options: { clock: Clock }): EventLog {
  return createArrayEventLog(options);
}
