import { ErrorCode } from '../../../shared/errors.js';
import { isoAt, type Clock } from '../../clock.js';
import { conflicting, invalid, missing } from '../../domain-error.js';
import type { IdGenerator } from '../../ids.js';
import type { CompanyServices, Emitted } from '../company-services.js';
import type { QuestionRecord, QuestionStore } from '../../store/types.js';

/**
 * The `question:` emitter: an agent surfaces a decision request and waits (spec §6.1). Asking
 * stores the question and emits `question:asked`; answering it (once) emits `question:answered`,
 * caused by the asked event, and resumes the agent by appending the answer to its session with a
 * new turn. Refusals throw DomainError, like every runtime service (company-services.ts).
 */
export interface AskInput {
  agent_id: string;
  session_id?: string | null;
  quest_id?: string | null;
  question: string;
  options?: string[] | null;
}

type Deps = {
  clock: Clock;
  ids: IdGenerator;
  store: QuestionStore;
  events: Pick<CompanyServices['events'], 'emit'>;
  agents: Pick<CompanyServices['agents'], 'get'>;
  sessions: Pick<CompanyServices['sessions'], 'get' | 'append'>;
  /** Told the answer to a question the chain budget asked (bus/flow/budget.ts). */
  onChainAnswer?(chain: string, answer: string, askedEventId: string | null): Promise<void>;
};

const MAX_TEXT = 4_000;

export function createQuestionDesk(deps: Deps) {
  return {
    async ask(input: AskInput): Promise<{ question: QuestionRecord; emitted: Emitted }> {
      const text = input.question?.trim() ?? '';
      if (!text || text.length > MAX_TEXT)
        throw invalid(`question must be 1-${MAX_TEXT} characters`, ErrorCode.validationFailed);
      const options = input.options ?? null;
      if (
        options &&
        (options.length < 2 ||
          options.length > 20 ||
          options.some((o) => typeof o !== 'string' || !o.trim() || o.length > 200))
      ) {
        throw invalid('options must be 2-20 non-empty strings of at most 200 characters', ErrorCode.validationFailed);
      }
      if (!(await deps.agents.get(input.agent_id))) throw missing(`no agent ${input.agent_id}`);
      const session = input.session_id ? await deps.sessions.get(input.session_id) : undefined;
      if (input.session_id && !session) throw missing(`no session ${input.session_id}`);
      const id = deps.ids('qn');
      const scope = {
        agent_id: input.agent_id,
        session_id: input.session_id ?? null,
        quest_id: input.quest_id ?? null,
      };
      const emitted = await deps.events.emit({
        type: 'question:asked',
        ...scope,
        content: { question_id: id, question: text, options },
      });
      const question = await deps.store.add({
        id,
        ...scope,
        question: text,
        options,
        asked_event_id: emitted.event.id,
        status: 'open',
        answer: null,
        answered_by: null,
        created_at: isoAt(deps.clock.now()),
        answered_at: null,
      });
      return { question, emitted };
    },

    async answer(id: string, answer: string, by = 'user'): Promise<{ question: QuestionRecord; emitted: Emitted }> {
      const text = typeof answer === 'string' ? answer.trim() : '';
      if (!text || text.length > MAX_TEXT)
        throw invalid(`answer must be 1-${MAX_TEXT} characters`, ErrorCode.validationFailed);
      const open = await deps.store.get(id);
      if (!open) throw missing(`no question ${id}`);
      if (open.options && !open.options.includes(text))
        throw invalid(`answer must be one of: ${open.options.join(', ')}`, ErrorCode.validationFailed);
      const outcome = await deps.store.answer(id, text, by, isoAt(deps.clock.now()));
      if (!outcome.ok)
        throw outcome.reason === 'not_found'
          ? missing(`no question ${id}`)
          : conflicting(`question ${id} was already answered`);
      const q = outcome.record;
      if (q.chain) await deps.onChainAnswer?.(q.chain, text, q.asked_event_id);
      const emitted = await deps.events.emit({
        type: 'question:answered',
        // A question the chain budget asked may be about no agent (stored as '').
        agent_id: q.agent_id || null,
        session_id: q.session_id,
        quest_id: q.quest_id,
        content: { question_id: q.id, answer: text, answered_by: by },
        caused_by: q.asked_event_id,
        source: 'emitter',
      });
      if (q.session_id) {
        await deps.sessions.append(
          q.session_id,
          { from: by, text: `Answer to your question "${q.question}": ${text}` },
          { startTurn: true, caused_by: emitted.event.id },
        );
      }
      return { question: q, emitted };
    },

    list: (filter?: Parameters<QuestionStore['list']>[0]) => deps.store.list(filter),
  };
}

export type QuestionDesk = ReturnType<typeof createQuestionDesk>;
