import type { LogQuery, NewEventRow } from '../../../../daemon/store/event-log/index.js';
import type { EventRow } from '../../../../daemon/company/company-services.js';

/** A small deterministic generator, so a failing randomized case replays the same way. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const maybe = <T>(random: () => number, items: readonly T[]): T | null => (random() < 0.3 ? null : pick(random, items));

const TYPES = ['session:start', 'session:stopped', 'quest:created', 'quest:done', 'agent:spawned', 'schedule:tick'];
const AGENTS = ['agt_a', 'agt_b', 'agt_c'];
const SESSIONS = ['ses_1', 'ses_2', 'ses_3', 'ses_4'];
const QUESTS = ['qst_1', 'qst_2'];

/** An event with random fields; a third of them caused by an earlier one (sharing its correlation). */
export function randomEvent(random: () => number, earlier: EventRow[]): NewEventRow {
  const cause = earlier.length > 0 && random() < 0.35 ? pick(random, earlier) : null;
  return {
    type: pick(random, TYPES),
    agent_id: maybe(random, AGENTS),
    session_id: maybe(random, SESSIONS),
    quest_id: maybe(random, QUESTS),
    causation_id: cause?.id ?? null,
    correlation_id: cause?.correlation_id,
    content: { r: Math.floor(random() * 1000) },
  };
}

/** A query with a random subset of the filters, built from values that exist (and some that do not). */
export function randomQuery(random: () => number, all: EventRow[], nowMs: number): LogQuery {
  const q: LogQuery = { limit: 1 + Math.floor(random() * 40) };
  const some = () => pick(random, all);
  if (random() < 0.4) q.event_type = pick(random, [...TYPES, 'none:here']);
  if (random() < 0.25) q.prefix = pick(random, ['session', 'quest', 'agent', 'nothing']);
  if (random() < 0.35) q.agent_id = pick(random, AGENTS);
  if (random() < 0.3) q.session_id = pick(random, SESSIONS);
  if (random() < 0.25) q.quest_id = pick(random, QUESTS);
  if (random() < 0.2) q.correlation_id = some().correlation_id;
  if (random() < 0.15) q.causation_id = some().id;
  if (random() < 0.3)
    q.since = new Date(nowMs - Math.floor(random() * (nowMs - Date.parse(all[0]!.created_at) + 5000))).toISOString();
  if (random() < 0.3) q.since_id = some().id;
  return q;
}

/** The definition of a query, with no index: scan everything. */
export function bruteForce(all: EventRow[], q: LogQuery): EventRow[] {
  const prefix = q.prefix?.replace(/:$/, '');
  return all.filter(
    (e) =>
      (q.event_type === undefined || e.type === q.event_type) &&
      (prefix === undefined || e.type.startsWith(prefix + ':')) &&
      (q.agent_id === undefined || e.agent_id === q.agent_id) &&
      (q.session_id === undefined || e.session_id === q.session_id) &&
      (q.quest_id === undefined || e.quest_id === q.quest_id) &&
      (q.correlation_id === undefined || e.correlation_id === q.correlation_id) &&
      (q.causation_id === undefined || e.causation_id === q.causation_id) &&
      (q.since === undefined || Date.parse(e.created_at) >= Date.parse(q.since)) &&
      (q.since_id === undefined || e.id > q.since_id),
  );
}
