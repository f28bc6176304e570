import type pg from 'pg';
import { endCode, judgeCode } from '../../accounts/codes.js';
import { withTransaction } from '../connect.js';
import { listDocs, putDoc } from '../runtime/doc-table.js';
import type { CodeStore } from '../../types.js';
import { ACCOUNTS, createSweeper, decideOnRows } from './rows.js';
import * as t from './tables.js';

/** The advisory-lock class of code issues (two-key form: it never meets the migration lock's single key). */
const ISSUE_LOCK = 7_566_948;

/**
 * E-mailed codes on PostgreSQL, with the data folder's decisions (judgeCode). Every consume locks
 * the live row in a transaction: a second consumer, on any daemon, waits, and then the row is no
 * longer live (its `live_…` column went null), so of any number of racing consumers exactly one
 * wins, and wrong tries counted on two daemons add up to one count.
 */
export function createPostgresCodeStore(pool: pg.Pool): CodeStore {
  const sweep = createSweeper(pool, t.codes);
  return {
    issue: async (record) => {
      const scope = `${record.purpose}|${record.email}`;
      await withTransaction(pool, async (client) => {
        // Issues for one address take turns (an advisory lock on its key), so of two racing issues
        // the second ends the first's code: a new code always invalidates every older one.
        await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ISSUE_LOCK, scope]);
        for (const c of await listDocs(client, t.codes, ACCOUNTS, { live_email: scope }, true))
          await putDoc(client, t.codes, ACCOUNTS, endCode(c, record.created_at));
        await putDoc(client, t.codes, ACCOUNTS, record);
      });
      await sweep(Date.parse(record.created_at));
    },
    consumeCode: (purpose, email, codeHash, nowIso, maxTries) =>
      decideOnRows(pool, t.codes, 'live_code', `${purpose}|${email}`, (rows) => {
        const { write, answer } = judgeCode(rows[0], codeHash, nowIso, maxTries);
        return { write: write && [write], answer };
      }),
    // Found by the hash of a 256-bit token: a lookup's timing cannot help guess a token.
    consumeLink: (purpose, linkHash, nowIso) =>
      decideOnRows(pool, t.codes, 'live_link', `${purpose}|${linkHash.toLowerCase()}`, ([row]) => {
        if (!row) return { answer: null };
        const ended = endCode(row, nowIso);
        return { write: [ended], answer: row.expires_at > nowIso ? structuredClone(ended) : null };
      }),
    endAll: (purpose, userId, nowIso) =>
      decideOnRows(pool, t.codes, 'live_user', `${purpose}|${userId}`, (rows) => ({
        write: rows.map((c) => endCode(c, nowIso)),
        answer: undefined,
      })),
  };
}
