import { companyDataDir } from '../../daemon/company/seam.js';
import type { Quest } from '../../daemon/company/company-services.js';
import { openJournalSpace } from '../../daemon/store/journal/index.js';
import { defineRuntimeTables } from '../../daemon/store/runtime/tables.js';

const BATCH = 5_000;

/**
 * Adds `records` records to a Company's runtime journal straight through the record engine: half
 * of them messages of one session (the transcript that grows), half quests. The daemon must be
 * stopped (one writer per journal).
 */
export async function seedRuntimeRecords(
  dataDir: string,
  companyId: string,
  sessionId: string,
  records: number,
): Promise<void> {
  const space = await openJournalSpace(companyDataDir(dataDir, companyId), { name: 'runtime' });
  const t = defineRuntimeTables(space);
  const session = t.sessions.get(sessionId);
  if (!session) throw new Error(`seed: no session ${sessionId}`);
  const messages = Math.floor(records / 2);
  const at = new Date().toISOString();
  for (let start = 0; start < messages; start += BATCH) {
    await space.write((tx) => {
      for (let i = start; i < Math.min(messages, start + BATCH); i++) {
        const seq = session.message_count + i;
        tx.put(t.messages, {
          id: `${sessionId}:${seq}`,
          session_id: sessionId,
          seq,
          at,
          from: 'user',
          text: `message ${i} of the seeded history`,
        });
      }
    });
  }
  await space.write((tx) => tx.put(t.sessions, { ...session, message_count: session.message_count + messages }));
  for (let start = 0; start < records - messages; start += BATCH) {
    await space.write((tx) => {
      for (let i = start; i < Math.min(records - messages, start + BATCH); i++) {
        const quest: Quest = {
          id: `qst_seed${String(i).padStart(8, '0')}`,
          title: `seeded quest ${i}`,
          status: 'open',
          agent_id: session.agent_id,
          session_id: null,
          result: null,
          created_at: at,
          updated_at: at,
        };
        tx.put(t.quests, quest);
      }
    });
  }
  await space.close();
}
