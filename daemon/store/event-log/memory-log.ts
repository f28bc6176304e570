import type { Clock } from '../../clock.js';
import { LogCore } from './log-core.js';
import type { EventLog } from './types.js';

/**
 * The in-memory event log, for tests and for runtimes without a data folder. It stores the same
 * JSON lines as the file log and answers through the same core, so content round-trips through
 * JSON exactly as it does on disk; an append is durable (for this process) the moment it returns.
 */
export function createMemoryEventLog(options: { clock: Clock }): EventLog {
  const lines: string[] = [];
  const core = new LogCore(options.clock, { read: (positions) => positions.map((p) => lines[p]!) });
  let closed = false;
  return {
    async append(input) {
      if (closed) throw new Error('the event log is closed');
      const event = core.prepare(input);
      lines.push(event.line);
      core.commit(event);
      return event.row;
    },
    get: async (id) => core.get(id),
    query: async (query) => core.query(query),
    lastId: async () => core.lastId(),
    recovery: [],
    async close() {
      closed = true;
    },
  };
}
