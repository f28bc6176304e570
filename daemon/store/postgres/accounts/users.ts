import type pg from 'pg';
import { withTransaction } from '../connect.js';
import { getDoc, insertDoc, putDoc } from '../runtime/doc-table.js';
import { createKeyedQueue } from '../runtime/keyed-queue.js';
import { type InviteStore, StoreConflict, type UserRecord, type UserStore } from '../../types.js';
import { ACCOUNTS, decideOnRow, findFirst, isDuplicateIn } from './rows.js';
import { revokeSessionsOf } from './sessions.js';
import * as t from './tables.js';

/** The unique index that keeps one account per e-mail address (002-accounts.ts). */
const EMAIL_INDEX = 'svc_users_email';
const emailTaken = () => new StoreConflict('email_taken', 'a user with this e-mail exists');

/** Runs `write`; a duplicate e-mail, from this daemon or a concurrent sign-up on another, is `email_taken`. */
async function refuseTakenEmail<R>(write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (err) {
    throw isDuplicateIn(err, EMAIL_INDEX) ? emailTaken() : err;
  }
}

/**
 * Users and invites on PostgreSQL. The unique index on `email` decides between racing sign-ups on any
 * daemons; "spend the invite and create the user" and "set the password and revoke the sessions"
 * are each one transaction, with the invite's or the user's row locked while it decides.
 */
export function createPostgresUserStore(pool: pg.Pool): UserStore {
  // Changes to one user from this daemon commit in call order (the last password set is the one
  // kept), as on the data folder; the row lock alone would let racing changes commit in any order.
  const inOrder = createKeyedQueue();
  /** Edits a copy of the locked user and writes it; a throwing edit rolls back the whole transaction. */
  const changeLocked = async (client: pg.PoolClient, id: string, edit: (draft: UserRecord) => void) => {
    const user = await getDoc(client, t.users, ACCOUNTS, id, true);
    if (!user) return undefined;
    const draft = structuredClone(user);
    edit(draft);
    await putDoc(client, t.users, ACCOUNTS, draft);
    return draft;
  };
  return {
    findById: (id) => getDoc(pool, t.users, ACCOUNTS, id),
    findByEmail: (email) => findFirst(pool, t.users, 'email', email.toLowerCase()),
    create: (user) =>
      refuseTakenEmail(async () => {
        await putDoc(pool, t.users, ACCOUNTS, user);
        return structuredClone(user);
      }),
    setTier: (id, tier) =>
      inOrder(id, () =>
        withTransaction(pool, (client) =>
          changeLocked(client, id, (u) => {
            u.tier = tier;
          }),
        ),
      ),
    update: (id, edit) =>
      inOrder(id, () => refuseTakenEmail(() => withTransaction(pool, (client) => changeLocked(client, id, edit)))),
    createWithInvite: async (user, inviteHash, atIso) => {
      try {
        return await withTransaction(pool, async (client) => {
          // The invite row stays locked until the account is made: a second sign-up on it waits, then finds it used.
          const invite = await getDoc(client, t.invites, ACCOUNTS, inviteHash, true);
          if (!invite || invite.used_at) return 'invite_invalid' as const;
          await putDoc(client, t.users, ACCOUNTS, user);
          await putDoc(client, t.invites, ACCOUNTS, { ...invite, used_at: atIso, used_by: user.id });
          return 'created' as const;
        });
      } catch (err) {
        // The insert failed on the e-mail: the transaction rolled back, so the invite is not spent.
        if (isDuplicateIn(err, EMAIL_INDEX)) return 'email_taken';
        throw err;
      }
    },
    setPassword: (id, passwordHash, atIso, keepSessionId, edit) =>
      inOrder(id, () =>
        withTransaction(pool, async (client) => {
          const user = await changeLocked(client, id, (u) => {
            u.password_hash = passwordHash;
            u.password_changed_at = atIso;
            edit?.(u);
          });
          return user ? revokeSessionsOf(client, id, atIso, keepSessionId ?? undefined) : undefined;
        }),
      ),
  };
}

export function createPostgresInviteStore(pool: pg.Pool): InviteStore {
  return {
    // Adding a hash that exists keeps the first row (and whether it was used).
    add: async (hash, at) => {
      await insertDoc(pool, t.invites, ACCOUNTS, { hash, created_at: at, used_at: null, used_by: null });
    },
    consume: (hash, at, userId) =>
      decideOnRow(pool, t.invites, hash, (invite) =>
        !invite || invite.used_at
          ? { answer: false }
          : { write: { ...invite, used_at: at, used_by: userId }, answer: true },
      ),
    find: (hash) => getDoc(pool, t.invites, ACCOUNTS, hash),
  };
}
