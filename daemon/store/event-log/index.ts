export type { EventLog, EventLogStats, LogQuery, NewEventRow } from './types.js';
export { openEventLog, type FileLogOptions } from './file-log.js';
export { createMemoryEventLog } from './memory-log.js';
export { formatEventId, parseEventId } from './event-id.js';
export { DEFAULT_LIMIT, MAX_LIMIT } from './log-query.js';
export type { SegmentIo } from '../disk/segment-io.js';
