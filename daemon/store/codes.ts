import { timingSafeEqual } from 'node:crypto';
import type { AccountsData } from './accounts.js';
import type { Doc } from './doc.js';
import type { CodeRecord, CodeStore } from './types.js';

/**
 * E-mailed codes live in the accounts document. Each consume is one synchronous check-and-set inside
 * `doc.update`, so of 20 concurrent requests with the right code exactly one sees the row live.
 */
export function createCodeStore(doc: Doc<AccountsData>): CodeStore {
  const live = (c: CodeRecord) => !c.ended_at;
  return {
    issue: (record) =>
      doc.update((data) => {
        // Forget rows that ended over a day ago; they are no use and would grow forever.
        const horizon = new Date(Date.parse(record.created_at) - 24 * 3600_000).toISOString();
        data.codes = data.codes.filter((c) => live(c) ? c.expires_at > horizon : c.ended_at! > horizon);
        for (const c of data.codes) {
          if (live(c) && c.purpose === record.purpose && c.email === record.email) c.ended_at = record.created_at;
        }
        data.codes.push(record);
      }),
    consumeCode: (purpose, email, codeHash, nowIso, maxTries) =>
      doc.update((data) => {
        const row = data.codes.find((c) => live(c) && c.purpose === purpose && c.email === email && c.code_hash);
        if (!row) return { ok: false, reason: 'no_code' } as const;
        if (row.expires_at <= nowIso) {
          row.ended_at = nowIso;
          return { ok: false, reason: 'expired' } as const;
        }
        // Compare the HMACs in constant time: the answer time must not tell how much of a guess was right.
        if (!sameHex(row.code_hash!, codeHash)) {
          row.tries++;
          if (row.tries >= maxTries) {
            row.ended_at = nowIso;
            return { ok: false, reason: 'burned' } as const;
          }
          return { ok: false, reason: 'wrong' } as const;
        }
        row.ended_at = nowIso;
        return { ok: true, record: structuredClone(row) } as const;
      }),
    consumeLink: (purpose, linkHash, nowIso) =>
      doc.update((data) => {
        const row = data.codes.find((c) => live(c) && c.purpose === purpose && c.link_hash && sameHex(c.link_hash, linkHash));
        if (!row) return null;
        row.ended_at = nowIso;
        return row.expires_at > nowIso ? structuredClone(row) : null;
      }),
    endAll: (purpose, userId, nowIso) =>
      doc.update((data) => {
        for (const c of data.codes) if (live(c) && c.purpose === purpose && c.user_id === userId) c.ended_at = nowIso;
      }),
  };
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
