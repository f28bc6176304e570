import type { Tx } from '../engine/types.js';
import { StoreConflict, type InviteStore, type UserRecord, type UserStore } from '../types.js';
import type { AccountTables } from './tables.js';

/**
 * Users and invites. "Consume the invite and create the user" and "set the password and revoke the
 * sessions" are each one write of the accounts space: all of it is durable, or none of it.
 */
export function createUserStore(t: AccountTables): UserStore {
  const { space, users, invites } = t;
  const emailTaken = (email: string | null | undefined, exceptId?: string) => {
    if (!email) return false;
    return users.lookup('email', email).some((u) => u.id !== exceptId);
  };
  const change = (tx: Tx, user: UserRecord, edit: (draft: UserRecord) => void): UserRecord => {
    // Edit a copy (records are frozen) and put it only when whole, so a throwing edit leaves no half-change.
    const draft = structuredClone(user) as UserRecord;
    edit(draft);
    tx.put(users, draft);
    return draft;
  };
  return {
    findById: async (id) => users.get(id),
    findByEmail: async (email) => users.first('email', email.toLowerCase()),
    create: (user) =>
      space
        .write((tx) => {
          if (emailTaken(user.email)) throw new StoreConflict('email_taken', 'a user with this e-mail exists');
          // A copy: the engine freezes what it stores, and the caller's object stays theirs.
          tx.put(users, structuredClone(user));
        })
        .then(() => users.get(user.id)!),
    setTier: (id, tier) =>
      space.write((tx) => {
        const user = users.get(id);
        return user ? change(tx, user, (u) => void (u.tier = tier)) : undefined;
      }),
    update: (id, edit) =>
      space.write((tx) => {
        const user = users.get(id);
        if (!user) return undefined;
        const draft = structuredClone(user) as UserRecord;
        edit(draft);
        if (emailTaken(draft.email, id)) throw new StoreConflict('email_taken', 'a user with this e-mail exists');
        tx.put(users, draft);
        return draft;
      }),
    createWithInvite: (user, inviteHash, atIso) =>
      space.write((tx) => {
        const invite = invites.get(inviteHash);
        if (!invite || invite.used_at) return 'invite_invalid' as const;
        if (emailTaken(user.email)) return 'email_taken' as const;
        tx.put(invites, { ...invite, used_at: atIso, used_by: user.id });
        tx.put(users, structuredClone(user));
        return 'created' as const;
      }),
    setPassword: (id, passwordHash, atIso, keepSessionId, edit) =>
      space.write((tx) => {
        const user = users.get(id);
        if (!user) return undefined;
        change(tx, user, (u) => {
          u.password_hash = passwordHash;
          u.password_changed_at = atIso;
          edit?.(u);
        });
        let revoked = 0;
        for (const s of t.sessions.lookup('live_user', id)) {
          if (s.id === keepSessionId) continue;
          tx.put(t.sessions, { ...s, revoked_at: atIso });
          revoked++;
        }
        return revoked;
      }),
  };
}

export function createInviteStore(t: AccountTables): InviteStore {
  const { space, invites } = t;
  return {
    add: (hash, at) =>
      space.write((tx) => {
        // Adding a hash that exists keeps the first row (and whether it was used).
        if (!invites.get(hash)) tx.put(invites, { hash, created_at: at, used_at: null, used_by: null });
      }),
    consume: (hash, at, userId) =>
      space.write((tx) => {
        const invite = invites.get(hash);
        if (!invite || invite.used_at) return false;
        tx.put(invites, { ...invite, used_at: at, used_by: userId });
        return true;
      }),
    find: async (hash) => invites.get(hash),
  };
}
