import { join } from 'node:path';
import { Doc } from './doc.js';
import type { QuestionRecord, QuestionStore } from './types.js';

export interface QuestionsData {
  questions: QuestionRecord[];
}

const questionsDefaults = (): QuestionsData => ({ questions: [] });

/** A Company's questions, in `<company data dir>/questions.json`. */
export async function openFileQuestionStore(companyDir: string): Promise<QuestionStore> {
  return createQuestionStore(await Doc.file(join(companyDir, 'questions.json'), questionsDefaults()));
}

export async function createMemoryQuestionStore(): Promise<QuestionStore> {
  return createQuestionStore(await Doc.memory(questionsDefaults()));
}

export function createQuestionStore(doc: Doc<QuestionsData>): QuestionStore {
  const copy = (q: QuestionRecord) => structuredClone(q);
  return {
    add: (record) =>
      doc.update((data) => {
        data.questions.push(copy(record));
        return copy(record);
      }),
    get: (id) => {
      const q = doc.data.questions.find((x) => x.id === id);
      return q ? copy(q) : undefined;
    },
    list: (filter = {}) =>
      doc.data.questions
        .filter((q) => (!filter.status || q.status === filter.status) && (!filter.agent_id || q.agent_id === filter.agent_id) && (!filter.session_id || q.session_id === filter.session_id))
        .map(copy),
    answer: (id, answer, by, atIso) =>
      doc.update((data) => {
        // Check-and-set in one synchronous step: the agent resumes once, with one answer.
        const q = data.questions.find((x) => x.id === id);
        if (!q) return { ok: false, reason: 'not_found' } as const;
        if (q.status === 'answered') return { ok: false, reason: 'already_answered' } as const;
        Object.assign(q, { status: 'answered', answer, answered_by: by, answered_at: atIso });
        return { ok: true, record: copy(q) } as const;
      }),
  };
}
