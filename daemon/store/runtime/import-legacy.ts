import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Space, Tx } from '../engine/types.js';
import type { Agent, ConfiguredEvent, Firing, Quest, RuntimeSession } from '../../../shared/runtime-records.js';
import type { ChannelRecord } from '../runtime-types.js';
import type { QuestionRecord, TickCursor } from '../runtime-types.js';
import { defineRuntimeTables, type RuntimeTables } from './tables.js';

/** What a Company folder of the release before the journal held, one lowdb document each. */
interface LegacyDocs {
  'runtime.json': {
    agents?: Record<string, Agent>;
    sessions?: Record<string, RuntimeSession>;
    quests?: Record<string, Quest>;
    configured?: Record<string, ConfiguredEvent>;
  };
  'firings.json': { firings?: Record<string, Firing[]> };
  'schedule-ticks.json': { cursors?: Record<string, TickCursor> };
  'channels.json': { channels?: ChannelRecord[] };
  'questions.json': { questions?: QuestionRecord[] };
}
type LegacyName = keyof LegacyDocs;

/** Order matters only for reading: each document is its own write. */
export const LEGACY_FILES: LegacyName[] = [
  'runtime.json',
  'firings.json',
  'schedule-ticks.json',
  'channels.json',
  'questions.json',
];
export const BACKUP_SUFFIX = '.pre-journal';

const importers: { [K in LegacyName]: (tx: Tx, t: RuntimeTables, doc: LegacyDocs[K]) => void } = {
  'runtime.json': (tx, t, doc) => {
    for (const a of Object.values(doc.agents ?? {})) tx.put(t.agents, a);
    for (const { transcript = [], ...s } of Object.values(doc.sessions ?? {})) {
      tx.put(t.sessions, { ...s, message_count: transcript.length });
      for (const [seq, m] of transcript.entries())
        tx.put(t.messages, { id: `${s.id}:${seq}`, session_id: s.id, seq, at: m.at, from: m.from, text: m.text });
    }
    for (const q of Object.values(doc.quests ?? {})) tx.put(t.quests, q);
    for (const c of Object.values(doc.configured ?? {})) tx.put(t.configured, c);
  },
  'firings.json': (tx, t, doc) => {
    for (const [event_id, fired] of Object.entries(doc.firings ?? {}))
      tx.put(t.firings, { id: `${event_id}:0`, event_id, fired });
  },
  'schedule-ticks.json': (tx, t, doc) => {
    for (const [id, c] of Object.entries(doc.cursors ?? {}))
      tx.put(t.ticks, { id, last_tick: c.last_tick, active: c.active, baseline: c.baseline });
  },
  'channels.json': (tx, t, doc) => {
    for (const c of doc.channels ?? []) tx.put(t.channels, c);
  },
  'questions.json': (tx, t, doc) => {
    for (const q of doc.questions ?? []) tx.put(t.questions, q);
  },
};

/**
 * Upgrade in place: brings each document a Company folder of the previous release holds into the
 * Company's journal, exactly once. Each document goes in ONE write together with its marker in
 * `meta`, so a crash leaves either nothing of it or all of it plus the marker; only once that
 * write is durable is the old file renamed to `<name>.pre-journal` (kept as the user's backup).
 * A restart that finds the marker and the file still there only renames it. Returns what it did.
 */
export async function importLegacyDocuments(space: Space, dir: string, now: () => string): Promise<string[]> {
  const t = defineRuntimeTables(space);
  const done: string[] = [];
  for (const name of LEGACY_FILES) {
    const file = join(dir, name);
    const text = await readIfThere(file);
    if (text === null) continue;
    const marker = `import:${name}`;
    if (!t.meta.get(marker)) {
      const doc = parseLegacy(file, text);
      await space.write((tx) => {
        importers[name](tx, t, doc as never);
        tx.put(t.meta, { id: marker, at: now(), bytes: text.length });
      });
      done.push(`imported ${name}`);
    }
    await rename(file, file + BACKUP_SUFFIX);
  }
  return done;
}

async function readIfThere(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function parseLegacy(file: string, text: string): object {
  try {
    const doc = JSON.parse(text) as unknown;
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) return doc;
  } catch {
    // fall through: the same refusal as the release that wrote it
  }
  // Never start empty over a document we could not read: the user's records would look lost.
  throw new Error(`data file ${file} is not valid JSON; restore it from a backup or move it away to start empty`);
}
