import type pg from 'pg';
import { withTransaction } from '../connect.js';
import { getDoc, listDocs, putDoc, type Queryable, sqlText } from '../runtime/doc-table.js';
import type { SessionRecord, SessionStore, UserRecord } from '../../types.js';
import { ACCOUNTS, createSweeper, decideOnRow } from './rows.js';
import * as t from './tables.js';

/**
 * Revokes the user's live sessions but `exceptId` inside the caller's transaction; how many. The
 * rows are locked oldest first (one order for every caller, so two revocations never deadlock), and
 * a row another daemon revoked meanwhile drops out of the lookup: each session is revoked once.
 */
export async function revokeSessionsOf(
  client: Queryable,
  userId: string,
  atIso: string,
  exceptId?: string,
): Promise<number> {
  const live = await listDocs(client, t.sessions, ACCOUNTS, { live_user: userId }, true);
  let revoked = 0;
  for (const s of live) {
    if (s.id === exceptId) continue;
    await putDoc(client, t.sessions, ACCOUNTS, { ...s, revoked_at: atIso });
    revoked++;
  }
  return revoked;
}

/**
 * Login sessions on PostgreSQL. Every authenticated request reads its row by primary key, from the
 * database, never from a cache: a session revoked through any daemon is refused by every daemon on
 * its next request. Sessions are forgotten a day after they ended, a few at a time (rows.ts).
 */
export function createPostgresSessionStore(pool: pg.Pool): SessionStore {
  const sweep = createSweeper(pool, t.sessions);
  return {
    find: (id) => getDoc(pool, t.sessions, ACCOUNTS, id),
    findWithUser: async (id) => {
      // One round trip for what every authenticated request needs. The join is on the live_user
      // column, not on the doc: PostgreSQL's json operators refuse a doc holding \u0000, which a
      // json column stores. A revoked session (live_user null, refused anyway) reads its user apart.
      const { rows } = await pool.query<{ session: SessionRecord; user: UserRecord | null }>(
        `SELECT s.doc AS session, u.doc AS user FROM svc_sessions s
           LEFT JOIN svc_users u ON u.id = s.live_user WHERE s.id = $1`,
        [sqlText(id)],
      );
      const row = rows[0];
      if (!row) return undefined;
      const { session } = row;
      const user =
        row.user ?? (session.revoked_at ? await getDoc(pool, t.users, ACCOUNTS, session.user_id) : undefined);
      return { session, user };
    },
    listActive: async (userId, nowIso) =>
      (await listDocs(pool, t.sessions, ACCOUNTS, { live_user: userId })).filter((s) => s.expires_at > nowIso),
    create: async (session) => {
      await putDoc(pool, t.sessions, ACCOUNTS, session);
      await sweep(Date.parse(session.created_at));
      return structuredClone(session);
    },
    revoke: (id, userId, atIso) =>
      decideOnRow(pool, t.sessions, id, (s) =>
        !s || s.user_id !== userId || s.revoked_at
          ? { answer: false }
          : { write: { ...s, revoked_at: atIso }, answer: true },
      ),
    revokeAll: (userId, atIso, exceptId) =>
      withTransaction(pool, (client) => revokeSessionsOf(client, userId, atIso, exceptId)),
    // Read under the row lock, so a revocation committed meanwhile by another daemon is kept.
    touch: (id, atIso) =>
      decideOnRow(pool, t.sessions, id, (s) => ({ write: s && { ...s, last_seen_at: atIso }, answer: undefined })),
  };
}
