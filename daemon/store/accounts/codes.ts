import { timingSafeEqual } from 'node:crypto';
import type { CodeAttempt, CodeRecord, CodeStore } from '../types.js';
import { createSweeper } from './expiry.js';
import type { AccountTables } from './tables.js';

/**
 * E-mailed codes. Each consume is one synchronous check-and-set inside `space.write`, so of 20
 * concurrent requests with the right code exactly one sees the row live. Live rows are indexed by
 * (purpose, e-mail), (purpose, link hash) and (purpose, user); dead ones are forgotten a day later,
 * a few at each new code.
 */
export function createCodeStore(t: AccountTables): CodeStore {
  const { space, codes } = t;
  const sweeper = createSweeper(codes, t.meta, (c) => c.id);
  return {
    issue: (record) =>
      space.write((tx) => {
        // A new code invalidates the old ones of the same purpose and address.
        for (const c of codes.lookup('live_email', `${record.purpose}|${record.email}`))
          tx.put(codes, endCode(c, record.created_at));
        tx.put(codes, structuredClone(record));
        sweeper.sweep(tx, Date.parse(record.created_at));
      }),
    consumeCode: (purpose, email, codeHash, nowIso, maxTries) =>
      space.write((tx) => {
        const row = codes.lookup('live_email', `${purpose}|${email}`).find((c) => c.code_hash);
        const { write, answer } = judgeCode(row, codeHash, nowIso, maxTries);
        if (write) tx.put(codes, write);
        return answer;
      }),
    consumeLink: (purpose, linkHash, nowIso) =>
      space.write((tx) => {
        // Found by the hash of a 256-bit token: a lookup's timing cannot help guess a token.
        const row = codes.first('live_link', `${purpose}|${linkHash.toLowerCase()}`);
        if (!row) return null;
        const ended = endCode(row, nowIso);
        tx.put(codes, ended);
        return row.expires_at > nowIso ? structuredClone(ended) : null;
      }),
    endAll: (purpose, userId, nowIso) =>
      space.write((tx) => {
        for (const c of codes.lookup('live_user', `${purpose}|${userId}`)) tx.put(codes, endCode(c, nowIso));
      }),
  };
}

/**
 * The decision of one code attempt on the live row of (purpose, e-mail), shared by every store: the
 * row to write (none: no change) and the answer. The right code ends the row; a wrong one counts a
 * try, and the `maxTries`-th wrong try burns the row; an expired row ends unused.
 */
export function judgeCode(
  row: CodeRecord | undefined,
  codeHash: string,
  nowIso: string,
  maxTries: number,
): { write?: CodeRecord; answer: CodeAttempt } {
  if (!row) return { answer: { ok: false, reason: 'no_code' } };
  if (row.expires_at <= nowIso) return { write: endCode(row, nowIso), answer: { ok: false, reason: 'expired' } };
  // Compare the HMACs in constant time: the answer time must not tell how much of a guess was right.
  if (!sameHex(row.code_hash!, codeHash)) {
    const tries = row.tries + 1;
    if (tries >= maxTries) return { write: endCode(row, nowIso, { tries }), answer: { ok: false, reason: 'burned' } };
    return { write: { ...row, tries }, answer: { ok: false, reason: 'wrong' } };
  }
  const ended = endCode(row, nowIso);
  return { write: ended, answer: { ok: true, record: structuredClone(ended) } };
}

/** The row, ended (consumed, burned or superseded) at `atIso`. */
export const endCode = (row: CodeRecord, atIso: string, extra: Partial<CodeRecord> = {}): CodeRecord => ({
  ...row,
  ...extra,
  ended_at: atIso,
});

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
