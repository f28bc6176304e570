import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { QuestionRecord, QuestionStore } from '../../../daemon/store/types.js';
import { runtimeStoreImplementations } from '../../helpers/store-implementations.js';

/** The question store's conformance suite, against memory and the Company journal. */
type Factory = () => Promise<{ store: QuestionStore; reopen?: () => Promise<QuestionStore> }>;
const implementations: Record<string, Factory> = Object.fromEntries(
  Object.entries(runtimeStoreImplementations).map(([name, make]) => [
    name,
    async () => {
      const { stores, reopen } = await make();
      return { store: stores.questions, reopen: reopen && (async () => (await reopen()).questions) };
    },
  ]),
);

const q = (id: string, over: Partial<QuestionRecord> = {}): QuestionRecord => ({
  id,
  agent_id: 'ag_1',
  session_id: 'se_1',
  quest_id: null,
  question: 'Ship it?',
  options: null,
  asked_event_id: 'ev_1',
  status: 'open',
  answer: null,
  answered_by: null,
  created_at: '2026-01-15T12:00:00.000Z',
  answered_at: null,
  ...over,
});

for (const [name, make] of Object.entries(implementations)) {
  const test = suite(`question store conformance: ${name}`);

  test('add, get, list by status and agent', async () => {
    const { store } = await make();
    await store.add(q('qn_1'));
    await store.add(q('qn_2', { agent_id: 'ag_2' }));
    assert.is((await store.get('qn_1'))?.question, 'Ship it?');
    assert.equal(
      (await store.list({ agent_id: 'ag_2' })).map((x) => x.id),
      ['qn_2'],
    );
    assert.equal(
      (await store.list({ status: 'open' })).map((x) => x.id),
      ['qn_1', 'qn_2'],
    );
  });

  test('an answer is recorded once, even under concurrent answers', async () => {
    const { store, reopen } = await make();
    await store.add(q('qn_1'));
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.answer('qn_1', `a${i}`, 'u', 'now')));
    assert.is(results.filter((r) => r.ok).length, 1);
    assert.equal(
      results.find((r) => !r.ok),
      { ok: false, reason: 'already_answered' },
    );
    assert.equal(await store.answer('nope', 'x', 'u', 'now'), { ok: false, reason: 'not_found' });
    if (reopen) assert.is((await (await reopen()).get('qn_1'))?.status, 'answered');
  });

  test.run();
}
