import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createQuestionDesk } from '../../../../daemon/company/detectors/questions.js';
import { DomainError } from '../../../../daemon/domain-error.js';
import { statusOfRefusal } from '../../../../daemon/http/error-renderer.js';
import { createIdGenerator } from '../../../../daemon/ids.js';
import { cryptoRandom } from '../../../../daemon/random.js';
import type { RuntimeSession } from '../../../../daemon/company/company-services.js';
import { createMemoryRuntimeStores } from '../../../../daemon/store/runtime/open.js';
import { createFakeEvents } from '../../../helpers/fake-events.js';
import { FakeClock } from '../../../helpers/fake-clock.js';

async function setup() {
  const clock = new FakeClock();
  const events = createFakeEvents(clock);
  const appended: Array<{ id: string; text: string; startTurn?: boolean; caused_by?: string | null }> = [];
  const session: RuntimeSession = {
    id: 'se_1',
    agent_id: 'ag_1',
    status: 'active',
    gateway_channel_id: null,
    transcript: [],
    created_at: '',
  };
  const desk = createQuestionDesk({
    clock,
    ids: createIdGenerator(clock, cryptoRandom),
    store: createMemoryRuntimeStores().questions,
    events: events.service,
    agents: { get: async (id) => (id === 'ag_1' ? { id, name: 'bob', role: null, created_at: '' } : undefined) },
    sessions: {
      get: async (id) => (id === 'se_1' ? session : undefined),
      append: async (id, entry, o) => (
        appended.push({ id, text: entry.text, startTurn: o?.startTurn, caused_by: o?.caused_by }), session
      ),
    },
  });
  return { desk, events, appended };
}

const status = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    assert.instance(err, DomainError);
    // As the HTTP layer answers it.
    const status = statusOfRefusal((err as DomainError).refusal);
    return `${status} ${(err as DomainError).code}`;
  }
  return 'ok';
};

test('asking emits question:asked; answering emits question:answered caused by it and resumes the agent', async () => {
  const { desk, events, appended } = await setup();
  const { question, emitted } = await desk.ask({
    agent_id: 'ag_1',
    session_id: 'se_1',
    question: 'Deploy to prod?',
    options: ['yes', 'no'],
  });
  assert.is(emitted.event.type, 'question:asked');
  assert.equal(emitted.event.content, {
    question_id: question.id,
    question: 'Deploy to prod?',
    options: ['yes', 'no'],
  });
  assert.equal(
    (await desk.list({ status: 'open' })).map((q) => q.id),
    [question.id],
  );
  const answered = await desk.answer(question.id, 'yes', 'dana');
  assert.is(answered.emitted.event.type, 'question:answered');
  assert.is(answered.emitted.event.causation_id, emitted.event.id);
  assert.equal(
    events.emits.map((e) => e.type),
    ['question:asked', 'question:answered'],
  );
  assert.equal(appended, [
    {
      id: 'se_1',
      text: 'Answer to your question "Deploy to prod?": yes',
      startTurn: true,
      caused_by: answered.emitted.event.id,
    },
  ]);
  assert.is(await status(desk.answer(question.id, 'no')), '409 conflict');
});

test('bad input is refused with the status a route would answer', async () => {
  const { desk } = await setup();
  assert.is(await status(desk.ask({ agent_id: 'ag_1', question: ' ' })), '400 validation_failed');
  assert.is(await status(desk.ask({ agent_id: 'ag_x', question: 'q?' })), '404 not_found');
  assert.is(await status(desk.ask({ agent_id: 'ag_1', session_id: 'se_x', question: 'q?' })), '404 not_found');
  assert.is(
    await status(desk.ask({ agent_id: 'ag_1', question: 'q?', options: ['only one'] })),
    '400 validation_failed',
  );
  const { question } = await desk.ask({ agent_id: 'ag_1', question: 'Pick', options: ['a', 'b'] });
  assert.is(await status(desk.answer(question.id, 'c')), '400 validation_failed');
  assert.is(await status(desk.answer('qn_missing', 'a')), '404 not_found');
  assert.is(await status(desk.answer(question.id, 'a')), 'ok', 'no session: answered without a turn');
});

test.run();
