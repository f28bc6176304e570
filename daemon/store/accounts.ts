import type { Doc } from './doc.js';
import { StoreConflict, type CodeRecord, type InviteRecord, type InviteStore, type SessionRecord, type UserRecord, type UserStore } from './types.js';

/**
 * Users, invites and sessions share one document, so that "consume the invite and create the user"
 * or "change the password and revoke the other sessions" is one atomic update.
 */
export interface AccountsData {
  users: UserRecord[];
  invites: InviteRecord[];
  sessions: SessionRecord[];
  codes: CodeRecord[];
}

export const accountsDefaults = (): AccountsData => ({ users: [], invites: [], sessions: [], codes: [] });

export function createUserStore(doc: Doc<AccountsData>): UserStore {
  const byId = (id: string) => doc.data.users.find((u) => u.id === id);
  return {
    findById: byId,
    findByEmail: (email) => {
      const wanted = email.toLowerCase();
      return doc.data.users.find((u) => u.email === wanted);
    },
    create: (user) =>
      doc.update((data) => {
        if (user.email && data.users.some((u) => u.email === user.email)) {
          throw new StoreConflict('email_taken', 'a user with this e-mail exists');
        }
        data.users.push(user);
        return user;
      }),
    setTier: (id, tier) =>
      doc.update((data) => {
        const user = data.users.find((u) => u.id === id);
        if (user) user.tier = tier;
        return user;
      }),
    update: (id, change) =>
      doc.update((data) => {
        const user = data.users.find((u) => u.id === id);
        if (!user) return undefined;
        // Change a copy and put it in place only when it is whole, so a throwing change leaves no half-edit.
        const draft = structuredClone(user);
        change(draft);
        if (draft.email && data.users.some((u) => u.id !== id && u.email === draft.email)) {
          throw new StoreConflict('email_taken', 'a user with this e-mail exists');
        }
        Object.assign(user, draft);
        return user;
      }),
    createWithInvite: (user, inviteHash, atIso) =>
      doc.update((data) => {
        const invite = data.invites.find((i) => i.hash === inviteHash);
        if (!invite || invite.used_at) return 'invite_invalid' as const;
        if (user.email && data.users.some((u) => u.email === user.email)) return 'email_taken' as const;
        invite.used_at = atIso;
        invite.used_by = user.id;
        data.users.push(user);
        return 'created' as const;
      }),
    setPassword: (id, passwordHash, atIso, keepSessionId, change) =>
      doc.update((data) => {
        const user = data.users.find((u) => u.id === id);
        if (!user) return undefined;
        user.password_hash = passwordHash;
        user.password_changed_at = atIso;
        change?.(user);
        let revoked = 0;
        for (const s of data.sessions) {
          if (s.user_id === id && !s.revoked_at && s.id !== keepSessionId) {
            s.revoked_at = atIso;
            revoked++;
          }
        }
        return revoked;
      }),
  };
}

export function createInviteStore(doc: Doc<AccountsData>): InviteStore {
  return {
    add: (hash, at) =>
      doc.update((data) => {
        data.invites.push({ hash, created_at: at, used_at: null, used_by: null });
      }),
    consume: (hash, at, userId) =>
      doc.update((data) => {
        const invite = data.invites.find((i) => i.hash === hash);
        if (!invite || invite.used_at) return false;
        invite.used_at = at;
        invite.used_by = userId;
        return true;
      }),
    find: (hash) => doc.data.invites.find((i) => i.hash === hash),
  };
}
