import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type DatabaseType from 'better-sqlite3';
import { loadBenchDependency } from '../bench-deps.js';
import { systemClock } from '../../daemon/clock.js';
import { formatEventId } from '../../daemon/store/event-log/event-id.js';
import { openEventLog, type LogQuery } from '../../daemon/store/event-log/index.js';
import type { EventRow } from '../../daemon/company/company-services.js';
import type { BenchCase, BenchRow } from '../harness.js';
import {
  AGENTS,
  loadSqliteFixture,
  SESSIONS,
  SQLITE_INSERT,
  SQLITE_SCHEMA,
  sqliteParams,
  TYPES,
  writeLogFixture,
} from '../event-log/fixture.js';
import { measureMicros, measureRate, memoryNow } from '../event-log/measure.js';

/**
 * The event log against SQLite (better-sqlite3, dev-only), in-process, both measured in this run:
 * durable appends, a filtered page of 100 at 1 M events, and the open time and memory at 1 M events.
 * SVC_BENCH_EVENTS overrides the 1 M (for a quick look; the targets are stated for 1 M).
 */
/** better-sqlite3 is not a dependency (it compiles at install): `npm run bench` installs it into .bench-deps/. */
let Database: typeof DatabaseType;
const COUNT = Number(process.env.SVC_BENCH_EVENTS ?? 1_000_000);
const APPENDERS = 64;
const QUERIES = 2000;
const MB = 1024 * 1024;

const eventLog: BenchCase = {
  name: 'event log (JSON Lines vs SQLite)',
  async run(env) {
    Database = loadBenchDependency<typeof DatabaseType>('better-sqlite3');
    const root = mkdtempSync(join(tmpdir(), 'svc-bench-events-'));
    try {
      return [...(await measureAppends(root, env.duration)), ...(await measureLargeLog(root))];
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};
export default eventLog;

const newEvent = (i: number) => ({
  type: TYPES[i % TYPES.length]!,
  agent_id: `agt_${i % AGENTS}`,
  session_id: `ses_${i % SESSIONS}`,
  quest_id: null,
  causation_id: null,
  content: { text: `step ${i} of the plan`, tokens: i % 1000 },
});

/** (a) Durable appends per second: each call returns only once its event is synced to disk. */
async function measureAppends(root: string, seconds: number): Promise<BenchRow[]> {
  const log = await openEventLog(join(root, 'append'), { clock: systemClock });
  let n = 0;
  const value = await measureRate(seconds, APPENDERS, () => log.append(newEvent(n++)));
  await log.close();

  // WAL with synchronous=FULL: every commit syncs the WAL before it returns — the same promise an
  // acknowledged append makes. NORMAL would sync only at checkpoints, acknowledging events a power
  // cut can still take back, so it is not the fair comparison.
  const db = new Database(join(root, 'append.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(SQLITE_SCHEMA);
  const insert = db.prepare(SQLITE_INSERT);
  const row = (i: number): EventRow => ({
    ...newEvent(i),
    id: formatEventId(i + 1),
    created_at: new Date().toISOString(),
    correlation_id: formatEventId(i + 1),
    source: 'emitter',
  });
  let m = 0;
  const perInsert = await measureRate(seconds, 1, () => insert.run(sqliteParams(row(m++))));
  // The same, with the application batching 64 inserts per transaction (SQLite cannot batch on its own).
  const insertMany = db.transaction((from: number) => {
    for (let i = from; i < from + APPENDERS; i++) insert.run(sqliteParams(row(i)));
  });
  const batches = await measureRate(seconds, 1, () => insertMany((m += APPENDERS)));
  db.close();
  return [
    {
      name: `durable appends, ${APPENDERS} concurrent appenders`,
      value,
      unit: 'events/s',
      baseline: perInsert,
      baselineName: 'SQLite WAL FULL, 1 insert/commit',
      target: '>= 0.7',
    },
    {
      name: `durable appends (vs SQLite batching ${APPENDERS}/commit)`,
      value,
      unit: 'events/s',
      baseline: batches * APPENDERS,
      baselineName: `SQLite WAL FULL, ${APPENDERS} inserts/commit`,
    },
  ];
}

/** (b) and (c): one log and one SQLite database holding the same COUNT events. */
async function measureLargeLog(root: string): Promise<BenchRow[]> {
  const dir = join(root, 'large');
  writeLogFixture(dir, COUNT);
  const before = await memoryNow();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let log = await openEventLog(dir, { clock: systemClock });
  const openMs = performance.now() - started;
  const cpuUsed = process.cpuUsage(cpu);
  const after = await memoryNow();
  if (log.stats!().events !== COUNT) throw new Error(`opened ${log.stats!().events} events, expected ${COUNT}`);

  const db = new Database(join(root, 'large.sqlite'));
  db.pragma('journal_mode = WAL');
  loadSqliteFixture(db, COUNT);
  const queries = makeQueries();
  const statements = {
    type: db.prepare('SELECT * FROM events WHERE type = ? AND id > ? ORDER BY id LIMIT 101'),
    agent: db.prepare('SELECT * FROM events WHERE agent_id = ? AND id > ? ORDER BY id LIMIT 101'),
    session: db.prepare('SELECT * FROM events WHERE session_id = ? AND id > ? ORDER BY id LIMIT 101'),
    both: db.prepare('SELECT * FROM events WHERE type = ? AND agent_id = ? AND id > ? ORDER BY id LIMIT 101'),
  };
  const viaSqlite = (q: LogQuery) => {
    const rows =
      q.event_type && q.agent_id
        ? statements.both.all(q.event_type, q.agent_id, q.since_id)
        : q.event_type
          ? statements.type.all(q.event_type, q.since_id)
          : q.agent_id
            ? statements.agent.all(q.agent_id, q.since_id)
            : statements.session.all(q.session_id, q.since_id);
    // An SQLite-backed log would hand out rows with their content parsed, as the JSON log does.
    return rows.slice(0, 100).map((r: Record<string, unknown>) => ({ ...r, content: JSON.parse(r.content as string) }));
  };
  const pages: BenchRow[] = [];
  for (const [kind, list] of Object.entries(queries)) {
    const baseline = measureMicros(list, viaSqlite);
    const value = measureMicros(list, (q) => log.query(q));
    pages.push({
      name: `page of 100 by ${kind} at ${millions(COUNT)} events`,
      value,
      unit: 'µs',
      baseline,
      baselineName: 'SQLite indexed query',
      target: '<= 1.5',
    });
  }
  const perEvent = (bytes: number) => `${(bytes / COUNT) | 0} B/event`;
  db.close();
  const indexBytes = log.stats!().index_bytes;
  // A clean stop saves the indexes; the next start loads them instead of reading every line.
  const closing = performance.now();
  await log.close();
  const closeMs = performance.now() - closing;
  const reopening = performance.now();
  log = await openEventLog(dir, { clock: systemClock });
  const reopenMs = performance.now() - reopening;
  if (log.stats!().events !== COUNT) throw new Error(`reopened ${log.stats!().events} events, expected ${COUNT}`);
  await log.close();
  return [
    ...pages,
    {
      name: `start at ${millions(COUNT)} events after a clean stop (snapshot)`,
      value: reopenMs,
      unit: 'ms',
      target: '<= 3000',
    },
    { name: `clean stop at ${millions(COUNT)} events (writes the snapshot)`, value: closeMs, unit: 'ms' },
    { name: `start at ${millions(COUNT)} events after a crash (scan every line)`, value: openMs, unit: 'ms' },
    // CPU time of that scan: about its wall time on an idle machine (the bench machine is often shared).
    { name: `  the same scan: CPU time (user+system)`, value: (cpuUsed.user + cpuUsed.system) / 1000, unit: 'ms' },
    {
      name: `memory at ${millions(COUNT)} events: RSS delta (${perEvent(after.rss - before.rss)})`,
      value: (after.rss - before.rss) / MB,
      unit: 'MB',
    },
    {
      name: `memory at ${millions(COUNT)} events: JS heap delta (${perEvent(after.heap - before.heap)})`,
      value: (after.heap - before.heap) / MB,
      unit: 'MB',
    },
    {
      name: `memory at ${millions(COUNT)} events: typed arrays and buffers delta`,
      value: (after.external - before.external) / MB,
      unit: 'MB',
    },
    {
      name: `memory at ${millions(COUNT)} events: index estimate (${perEvent(indexBytes)})`,
      value: indexBytes / MB,
      unit: 'MB',
    },
  ];
}

const millions = (n: number) => `${(n / 1e6).toFixed(n % 1e6 ? 2 : 0)} M`;

/** The same pages for both, by kind: a type, an agent, a session, a type and an agent; each from a random cursor. */
function makeQueries(): Record<string, LogQuery[]> {
  let s = 7;
  const random = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32);
  const cursor = () => formatEventId(Math.floor(random() * COUNT * 0.99));
  const type = () => TYPES[Math.floor(random() * TYPES.length)]!;
  const agent = () => `agt_${Math.floor(random() * AGENTS)}`;
  const many = (make: () => LogQuery) => Array.from({ length: QUERIES / 4 }, make);
  return {
    type: many(() => ({ event_type: type(), since_id: cursor(), limit: 100 })),
    agent: many(() => ({ agent_id: agent(), since_id: cursor(), limit: 100 })),
    session: many(() => ({ session_id: `ses_${Math.floor(random() * SESSIONS)}`, since_id: cursor(), limit: 100 })),
    'type and agent': many(() => ({ event_type: type(), agent_id: agent(), since_id: cursor(), limit: 100 })),
  };
}
