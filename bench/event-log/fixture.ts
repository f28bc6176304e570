import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { formatEventId } from '../../daemon/store/event-log/event-id.js';
import { encodeEventLine } from '../../daemon/store/event-log/line-format.js';
import type { EventRow } from '../../daemon/company/company-services.js';

/**
 * The benchmark's events, the same for the log and for SQLite: 10 types over 4 prefixes,
 * 50 agents, 1,000 sessions, a fifth tied to one of 5,000 quests, a third caused by an earlier event.
 */
export const TYPES = [
  'session:start',
  'session:step_start',
  'session:execution_start',
  'session:stopped',
  'quest:created',
  'quest:done',
  'agent:message',
  'agent:idle',
  'schedule:tick',
  'webhook:received',
];
export const AGENTS = 50;
export const SESSIONS = 1000;

const START_MS = Date.parse('2026-01-01T00:00:00Z');

export function fixtureEvent(i: number): EventRow {
  const seq = i + 1;
  const id = formatEventId(seq);
  // A cheap deterministic scramble, so fields do not all line up with i.
  const h = Math.imul(seq, 2654435761) >>> 0;
  const cause = h % 3 === 0 && seq > 10 ? formatEventId(seq - 1 - (h % 10)) : null;
  return {
    id,
    type: TYPES[h % TYPES.length]!,
    agent_id: `agt_${(h >>> 12) % AGENTS}`,
    session_id: `ses_${(h >>> 8) % SESSIONS}`,
    quest_id: h % 5 === 0 ? `qst_${(h >>> 4) % 5000}` : null,
    content: { text: `step ${seq} of the plan`, tokens: h % 1000 },
    created_at: new Date(START_MS + seq * 10).toISOString(),
    causation_id: cause,
    correlation_id: cause ?? id,
    source: cause ? 'tool_call' : 'emitter',
  };
}

/** Writes `count` events straight into segment files, in the log's own format: far faster than appending them. */
export function writeLogFixture(dir: string, count: number, segmentBytes = 64 * 1024 * 1024): void {
  const eventsDir = join(dir, 'events');
  mkdirSync(eventsDir, { recursive: true });
  let segment = 1;
  let chunks: string[] = [];
  let size = 0;
  const flush = () => {
    writeFileSync(join(eventsDir, `${String(segment).padStart(6, '0')}.jsonl`), chunks.join(''));
    segment++;
    chunks = [];
    size = 0;
  };
  for (let i = 0; i < count; i++) {
    const line = encodeEventLine(fixtureEvent(i)) + '\n';
    if (size + line.length > segmentBytes) flush();
    chunks.push(line);
    size += line.length;
  }
  flush();
}

export const SQLITE_SCHEMA = `CREATE TABLE events (id TEXT PRIMARY KEY, type TEXT NOT NULL, agent_id TEXT, session_id TEXT,
  quest_id TEXT, causation_id TEXT, correlation_id TEXT NOT NULL, created_at TEXT NOT NULL, content TEXT) WITHOUT ROWID`;

/** The indexes an SQLite event log would have for the same filters, each ending in id so a page is an index range scan. */
export const SQLITE_INDEXES = ['type', 'agent_id', 'session_id', 'quest_id', 'correlation_id'].map(
  (c) => `CREATE INDEX events_${c} ON events (${c}, id)`,
);

export const SQLITE_INSERT =
  'INSERT INTO events VALUES (@id, @type, @agent_id, @session_id, @quest_id, @causation_id, @correlation_id, @created_at, @content)';

export const sqliteParams = (row: EventRow) => ({ ...row, content: JSON.stringify(row.content) });

/** Loads `count` fixture events in one transaction, then builds the indexes. */
export function loadSqliteFixture(db: Database.Database, count: number): void {
  db.exec(SQLITE_SCHEMA);
  const insert = db.prepare(SQLITE_INSERT);
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(sqliteParams(fixtureEvent(i)));
  })();
  for (const sql of SQLITE_INDEXES) db.exec(sql);
}
