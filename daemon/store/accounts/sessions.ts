import type { SessionStore } from '../types.js';
import { createSweeper } from './expiry.js';
import type { AccountTables } from './tables.js';

/**
 * Login sessions, found by id (every authenticated request) and by user through the `live_user`
 * index. A session is forgotten a day after it ended, a few at each new login: the table does not
 * grow with every login forever, and no login pays for the whole table.
 */
export function createSessionStore(t: AccountTables): SessionStore {
  const { space, sessions } = t;
  const sweeper = createSweeper(sessions, t.meta, (s) => s.id);
  return {
    find: async (id) => sessions.get(id),
    findWithUser: async (id) => {
      const session = sessions.get(id);
      return session && { session, user: t.users.get(session.user_id) };
    },
    listActive: async (userId, nowIso) => sessions.lookup('live_user', userId).filter((s) => s.expires_at > nowIso),
    create: (session) =>
      space
        .write((tx) => {
          tx.put(sessions, structuredClone(session));
          sweeper.sweep(tx, Date.parse(session.created_at));
        })
        .then(() => sessions.get(session.id) ?? session),
    revoke: (id, userId, atIso) =>
      space.write((tx) => {
        const s = sessions.get(id);
        if (!s || s.user_id !== userId || s.revoked_at) return false;
        tx.put(sessions, { ...s, revoked_at: atIso });
        return true;
      }),
    revokeAll: (userId, atIso, exceptId) =>
      space.write((tx) => {
        let n = 0;
        for (const s of sessions.lookup('live_user', userId)) {
          if (s.id === exceptId) continue;
          tx.put(sessions, { ...s, revoked_at: atIso });
          n++;
        }
        return n;
      }),
    touch: (id, atIso) =>
      space.write((tx) => {
        const s = sessions.get(id);
        if (s) tx.put(sessions, { ...s, last_seen_at: atIso });
      }),
  };
}
