import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { companyDataDir } from '../../../../daemon/company/seam.js';
import { openJournalRuntimeStores } from '../../../../daemon/store/runtime/open.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { createRuntimeTestApp, type RuntimeTestApp } from '../../../helpers/runtime-app.js';

/**
 * A crash between two steps of compaction as delegation, played on the file storage: the daemon
 * stops, the Company's stores are changed as the interrupted step left them, and the daemon
 * starts again on the same folder. The session must stay usable, and end up consistent.
 */
const HOUR = 3600_000;
const open = (clock: FakeClock, dataDir?: string) =>
  createRuntimeTestApp({
    clock,
    storage: 'file',
    dataDir,
    runtime: { compaction: { role: 'summarizer', timeoutMs: HOUR } },
  });
const sessionOf = async (t: RuntimeTestApp, id: string) => (await t.get(`/api/sessions/${id}`)).body.session;

async function crossed(clock: FakeClock) {
  const t = await open(clock);
  const ada = (await t.post('/api/agents', { name: 'Ada' })).body.agent;
  await t.post('/api/agents', { name: 'Sam', role: 'summarizer' });
  const session = (await t.post('/api/sessions', { agent_id: ada.id, context_budget: 50 })).body.session;
  await t.post(`/api/sessions/${session.id}/messages`, { text: 'a'.repeat(60) });
  const quest_id = (await sessionOf(t, session.id)).compaction.quest_id;
  await t.close();
  return { dataDir: t.dataDir, companyDir: companyDataDir(t.dataDir, t.company.id), session, quest_id };
}

test('the quest was done but the daemon stopped before the session took the summary: the next message takes it', async () => {
  const clock = new FakeClock();
  const { dataDir, companyDir, session, quest_id } = await crossed(clock);
  // The quest's write landed; the session's did not.
  const stores = await openJournalRuntimeStores(companyDir);
  await stores.quests.update(quest_id, (q) => ({ ...q, status: 'done', result: 'the gist' }));
  await stores.close();

  const t = await open(clock, dataDir);
  assert.is((await sessionOf(t, session.id)).compaction.status, 'pending', 'nothing changes on a read');
  const res = await t.post(`/api/sessions/${session.id}/messages`, { text: 'next' });
  assert.is(res.status, 200);
  const s = await sessionOf(t, session.id);
  assert.is(s.compaction.status, 'done');
  assert.is(s.context_summary.text, 'the gist');
  assert.is(s.context_used, 'the gist'.length + 'next'.length);
  assert.is((await t.get('/api/events?event_type=context:compaction:done')).body.events.length, 1);
  // Ending it again (the quest's own hook, a second settle) changes nothing more.
  await t.post(`/api/sessions/${session.id}/messages`, { text: 'more' });
  assert.is((await t.get('/api/events?event_type=context:compaction:done')).body.events.length, 1);
  await t.close();
});

test('the claim landed but the quest was never created: the session stays usable and is compacted again after the timeout', async () => {
  const clock = new FakeClock();
  const { dataDir, companyDir, session, quest_id } = await crossed(clock);
  // As if the daemon stopped right after the claim: no quest behind it.
  const stores = await openJournalRuntimeStores(companyDir);
  assert.ok(await stores.quests.get(quest_id));
  await stores.sessions.update(session.id, (s) => ({
    ...s,
    compaction: { ...s.compaction!, quest_id: 'qst_never_made' },
  }));
  await stores.close();

  const t = await open(clock, dataDir);
  assert.is((await t.post(`/api/sessions/${session.id}/messages`, { text: 'usable' })).status, 200);
  const busy = (await t.post(`/api/sessions/${session.id}/compact`, {})).body;
  assert.is(busy.started, false, 'still pending within its timeout');
  assert.is(busy.quest, null);
  clock.advance(HOUR + 1);
  const fresh = (await t.post(`/api/sessions/${session.id}/compact`, {})).body;
  assert.is(fresh.started, true);
  await t.patch(`/api/quests/${fresh.quest.id}`, { status: 'done', result: { summary: 'all of it' } });
  assert.is((await sessionOf(t, session.id)).context_summary.text, 'all of it');
  await t.close();
});

test.run();
