import type { EventRow } from '../../shared/runtime-records.js';
import type { LiveCell, LiveRow } from './live-feed.js';

/** One colour per source of spec §6.1, so a glance tells the scheduler from a guardrail. */
const PREFIX_COLORS: Record<string, string> = {
  session: 'green',
  schedule: 'cyan',
  webhook: 'magenta',
  question: 'yellow',
  context: 'yellow',
  loop: 'red',
  guardrail: 'red',
  graph_guardrail: 'red',
  shell: 'blue',
  agent: 'blue',
  ideas: 'magenta',
};

export function pickTypeColor(type: string): string {
  return PREFIX_COLORS[type.slice(0, type.indexOf(':'))] ?? 'white';
}

/**
 * `agt_<9 time><4 counter><6 random>` → `agt_…<6 random>`: the random tail tells ids apart on
 * screen; the time part is the same for everything made in one burst.
 */
export function shortenId(id: string): string {
  const cut = id.indexOf('_');
  if (cut < 0 || id.length - cut - 1 <= 8) return id;
  return `${id.slice(0, cut + 1)}…${id.slice(-6)}`;
}

/** Content on one line: `key=value` pairs for an object, the text for a string, JSON otherwise. */
export function summarizeContent(content: unknown, max = 200): string {
  let text: string;
  if (content === null || content === undefined) text = '';
  else if (typeof content === 'string') text = content;
  else if (typeof content === 'object' && !Array.isArray(content)) {
    text = Object.entries(content as Record<string, unknown>)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
  } else text = JSON.stringify(content);
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `2026-11-22T21:51:05.123Z` → `21:51:05` (UTC, like the header says). */
export const formatClockTime = (iso: string): string => iso.slice(11, 19);

export function buildEventRow(e: EventRow): LiveRow {
  const scope = [
    e.agent_id && `agent=${shortenId(e.agent_id)}`,
    e.session_id && `session=${shortenId(e.session_id)}`,
    e.quest_id && `quest=${shortenId(e.quest_id)}`,
  ]
    .filter(Boolean)
    .join(' ');
  const cells: LiveCell[] = [
    { text: formatClockTime(e.created_at), dim: true },
    { text: e.type, color: pickTypeColor(e.type), bold: true },
    // The whole id, never shortened: it is what `svc events trace <id>` takes.
    { text: e.id, dim: true },
  ];
  if (scope) cells.push({ text: scope });
  const summary = summarizeContent(e.content);
  if (summary) cells.push({ text: summary, dim: true });
  return { key: e.id, cells };
}
