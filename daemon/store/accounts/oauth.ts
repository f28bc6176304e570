import type { Space, TableSpec } from '../engine/types.js';
import { GRANT_BINDING_KEPT_MS, GRANT_BINDING_KIND, type OAuthRecord, type OAuthStore } from '../oauth-types.js';
import { createSweeper, deadKey, metaSpec, msOf } from './expiry.js';

/**
 * The authorization server's records on the record engine (the data folder's accounts journal, or
 * memory). Each write is one synchronous step of `space.write`, so a consume is a check-and-set:
 * of two requests redeeming one code, exactly one sees it unused. Expired rows are forgotten a few
 * at each write (expiry.ts).
 */
export const oauthSpec: TableSpec<OAuthRecord> = {
  name: 'oauth_records',
  id: (r) => `${r.kind}|${r.id_hash}`,
  indexes: {
    grant: (r) => r.grant_id,
    uid: (r) => (r.uid ? `${r.kind}|${r.uid}` : null),
    // A grant binding outlives its expiry a while, for the audit trail's expiry check to see it.
    dead: (r) =>
      r.expires_at ? deadKey(msOf(r.expires_at, r.kind === GRANT_BINDING_KIND ? GRANT_BINDING_KEPT_MS : 0)) : null,
  },
};

const keyOf = (kind: string, idHash: string) => `${kind}|${idHash}`;
const live = (r: OAuthRecord | undefined, nowIso: string) =>
  r && (!r.expires_at || r.expires_at > nowIso) ? structuredClone(r) : undefined;

export function createOAuthStore(space: Space): OAuthStore {
  const records = space.define(oauthSpec);
  const sweeper = createSweeper(records, space.define(metaSpec), oauthSpec.id);
  return {
    put: (record, nowIso) =>
      space.write((tx) => {
        tx.put(records, structuredClone(record));
        sweeper.sweep(tx, Date.parse(nowIso));
      }),
    find: async (kind, idHash, nowIso) => live(records.get(keyOf(kind, idHash)), nowIso),
    findByUid: async (kind, uid, nowIso) => live(records.first('uid', `${kind}|${uid}`), nowIso),
    consume: (kind, idHash, atIso) =>
      space.write((tx) => {
        const row = records.get(keyOf(kind, idHash));
        if (!row || row.consumed_at) return false;
        tx.put(records, {
          ...row,
          consumed_at: atIso,
          payload: { ...row.payload, consumed: Math.floor(Date.parse(atIso) / 1000) },
        });
        return true;
      }),
    remove: (kind, idHash) =>
      space.write((tx) => {
        if (records.get(keyOf(kind, idHash))) tx.remove(records, keyOf(kind, idHash));
      }),
    removeGrant: (grantId) =>
      space.write((tx) => {
        for (const r of records.lookup('grant', grantId)) tx.remove(records, oauthSpec.id(r));
      }),
    stamp: (kind, idHash, field, atIso) =>
      space.write((tx) => {
        const row = records.get(keyOf(kind, idHash));
        if (row) tx.put(records, { ...row, payload: { ...row.payload, [field]: atIso } });
      }),
    listByUid: async (kind, uid, nowIso) =>
      records.lookup('uid', `${kind}|${uid}`).flatMap((r) => live(r, nowIso) ?? []),
    listExpiring: async (kind, afterIso, untilIso) => {
      // A walk over the records in memory, once a minute, like the keys' (tenancy.ts).
      const out: OAuthRecord[] = [];
      for (const r of records.all())
        if (r.kind === kind && r.expires_at && r.expires_at > afterIso && r.expires_at <= untilIso)
          out.push(structuredClone(r));
      return out;
    },
    removeGrantsOfUser: (userId) =>
      space.write((tx) => {
        const grants = records.lookup('uid', `${GRANT_BINDING_KIND}|${userId}`).map((b) => b.grant_id);
        for (const grantId of grants)
          if (grantId) for (const r of records.lookup('grant', grantId)) tx.remove(records, oauthSpec.id(r));
      }),
  };
}
