import type { Doc } from './doc.js';
import type { AccountsData } from './accounts.js';
import type { SessionRecord, SessionStore } from './types.js';

/** Sessions live in the accounts document, so "reset the password and revoke every session" is one atomic update. */
export function createSessionStore(doc: Doc<AccountsData>): SessionStore {
  return {
    find: (id) => doc.data.sessions.find((s) => s.id === id),
    listActive: (userId, nowIso) =>
      doc.data.sessions.filter((s) => s.user_id === userId && !s.revoked_at && s.expires_at > nowIso),
    create: (session) =>
      doc.update((data) => {
        // Drop rows that ended over a day ago: the list would otherwise grow with every login forever.
        const horizon = new Date(Date.parse(session.created_at) - 24 * 3600_000).toISOString();
        data.sessions = data.sessions.filter((s) => (s.revoked_at ?? s.expires_at) > horizon);
        data.sessions.push(session);
        return session;
      }),
    revoke: (id, userId, atIso) =>
      doc.update((data) => {
        const s = data.sessions.find((x) => x.id === id && x.user_id === userId && !x.revoked_at);
        if (!s) return false;
        s.revoked_at = atIso;
        return true;
      }),
    revokeAll: (userId, atIso, exceptId) =>
      doc.update((data) => {
        let n = 0;
        for (const s of data.sessions) {
          if (s.user_id === userId && !s.revoked_at && s.id !== exceptId) {
            s.revoked_at = atIso;
            n++;
          }
        }
        return n;
      }),
    touch: (id, atIso) =>
      doc.update((data) => {
        const s = data.sessions.find((x) => x.id === id);
        if (s) s.last_seen_at = atIso;
      }),
  };
}
