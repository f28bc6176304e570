import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ACCOUNT_TABLE_SPECS } from '../../../daemon/store/accounts/tables.js';
import { encodeLine, fingerprintOf } from '../../../daemon/store/engine/record-text.js';

/**
 * Snapshot lines carry index keys, trusted while the key functions' fingerprint (their source) is
 * unchanged. A key function can change what it computes without its source changing (a helper such
 * as `deadKey`, a constant): then stored keys would be wrong. This pins each account table's keys
 * for a sample record beside its fingerprint, so any such change fails here and says what to do.
 */

const T = '2026-11-24T08:00:00.000Z';
const SAMPLES: Record<string, object> = {
  meta: { id: 'sweep:sessions', cursor: 1 },
  users: { id: 'usr_1', email: 'ada@example.com' },
  invites: { hash: 'h1' },
  sessions: { id: 'ses_1', user_id: 'usr_1', revoked_at: null, expires_at: T },
  codes: {
    id: 'cod_1',
    purpose: 'login',
    email: 'ada@example.com',
    link_hash: 'lh',
    user_id: 'usr_1',
    ended_at: null,
    expires_at: T,
  },
  mail: { id: 'msg_1', to: 'Ada@Example.com' },
  companies: { id: 'com_1', owner_id: 'usr_1', name: 'Acme' },
  secret_keys: { id: 'sk_1', hash: 'kh', user_id: 'usr_1' },
  account_keys: { id: 'ak_1', hash: 'kh', user_id: 'usr_1' },
  challenges: { id: 'chl_1', kind: 'totp', secret_hash: 'sh', ended_at: null, expires_at: T },
  passkeys: { id: 'cred', user_id: 'usr_1' },
  wallets: { address: '0xabc' },
  rate_buckets: { id: 'login|a', t: [], exp: Date.parse(T) },
  failures: { id: 'account|pwd:a', n: 1, lock: null, exp: Date.parse(T) },
  memberships: { id: 'com_1|usr_2', company_id: 'com_1', user_id: 'usr_2', role: 'member' },
  invitations: { id: 'inv_1', company_id: 'com_1', email: 'bea@example.com', code_hash: 'ch', ended_at: null },
};

const PINNED: Record<string, [string, unknown[]]> = {
  meta: ['aLgqiqyjiRaqPAMz', []],
  users: ['xY2-3j2jmQZTPIP0', ['ada@example.com']],
  invites: ['snRTpg6MzKCe2e3D', []],
  sessions: ['_t9cVS-q7W7pYfJ4', ['usr_1', '29926560']],
  codes: ['t1P058n74lXmVW4o', ['login|ada@example.com', 'login|lh', 'login|usr_1', '29926560']],
  mail: ['ZytSB4M7oZYs77Cm', ['ada@example.com']],
  companies: ['se01j2-OSmEpkrkl', ['usr_1', 'usr_1|acme']],
  secret_keys: ['OVcHAGkWi1UTY4uR', ['kh', 'usr_1', null]],
  account_keys: ['9hy3J8n0bvMTCvr0', ['kh', 'usr_1']],
  challenges: ['XjlO0ULx9yuJ2zcB', ['totp|sh', '29925120']],
  passkeys: ['L0S91BHiXdSFKUXP', ['usr_1']],
  wallets: ['v8YYc-G9D7JoY5Yd', []],
  rate_buckets: ['9mp7bFk_wjo-x-kH', ['29925120']],
  failures: ['b6-Vww-QNhxPWqtw', ['29925120']],
  memberships: ['mL2_DtQa3sWLFas7', ['com_1', 'usr_2']],
  invitations: ['5dx3-W8Khq7k9nOm', ['com_1', 'ch', 'com_1|bea@example.com']],
};

test('the account tables compute the keys pinned for their fingerprints', () => {
  for (const spec of ACCOUNT_TABLE_SPECS) {
    const record = SAMPLES[spec.name];
    assert.ok(record, `${spec.name}: add a sample record to this test`);
    const keys = (JSON.parse(encodeLine(spec, spec.id(record), record)) as { keys: unknown[] }).keys;
    const fingerprint = fingerprintOf(spec);
    const [pinned, pinnedKeys] = PINNED[spec.name] ?? ['', []];
    if (fingerprint !== pinned)
      assert.unreachable(
        `${spec.name}: its key functions changed (snapshots written before are re-keyed at the next start, once): ` +
          `pin [${JSON.stringify(fingerprint)}, ${JSON.stringify(keys)}] here`,
      );
    assert.equal(
      keys,
      pinnedKeys,
      `${spec.name}: the keys changed while the key functions' source did not: bump the spec's \`version\` (and the pin)`,
    );
  }
});

test.run();
