import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { isoAt } from '../../clock.js';
import type { Deps } from '../../deps.js';
import type { SessionRecord, UserRecord } from '../../store/types.js';
import { browserOrigins } from '../browser-origins.js';
import type { PairingRecord, PairingStore } from '../../store/pairing-store.js';

/**
 * Device pairing for `svc login --web` (RFC 8628's device flow, in short). The CLI holds a long
 * random device code and polls with it; the person sees a short user code in the terminal and
 * the same code on the console's page, and approves there while logged in. The user code alone
 * is worth nothing: it names a pairing, and only a logged-in user's approval makes it yield a
 * session — a new one, to the holder of the device code, once.
 */
const PAIRING_TTL_MS = 10 * 60_000;
/** Seconds the CLI waits between polls. */
const POLL_INTERVAL_S = 2;
/** RFC 8628 §6.1: no vowels (no words), no look-alike digits; 20^8 ≈ 2^34.6 codes. */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const CODE_LENGTH = 8;

const sha256 = (kind: string, value: string) => createHash('sha256').update(`${kind}:${value}`).digest('hex');
/** Case, spaces and dashes do not matter when a person types the code. */
const normalizeUserCode = (code: string) => code.toUpperCase().replace(/[^A-Z]/g, '');
const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;
const hashUserCode = (code: string) => sha256('pairing_code', normalizeUserCode(code));
/** Also the key of the poll throttle: the throttle store never holds the device code itself. */
export const hashDeviceCode = (code: string) => sha256('pairing_device', code);

export type PairingDeps = Pick<Deps, 'clock' | 'ids' | 'random' | 'config' | 'stores' | 'secrets'>;

export async function startPairing(
  deps: PairingDeps,
  store: PairingStore,
  ctx: Pick<Context, 'get' | 'ip'>,
  client: string | null,
) {
  const now = deps.clock.now();
  const userCode = Array.from({ length: CODE_LENGTH }, () => ALPHABET[deps.random.int(0, ALPHABET.length)]).join('');
  const deviceCode = deps.random.bytes(32).toString('base64url');
  const record: PairingRecord = {
    id: deps.ids('pair'),
    device_hash: hashDeviceCode(deviceCode),
    code_hash: hashUserCode(userCode),
    client,
    user_agent: ctx.get('User-Agent')?.slice(0, 256) || null,
    ip: ctx.ip || null,
    created_at: isoAt(now),
    expires_at: isoAt(now + PAIRING_TTL_MS),
    status: 'pending',
    user_id: null,
    approved_by_session: null,
    approved_method: null,
    approver_password_changed_at: null,
  };
  await store.create(record);
  const page = `${browserOrigins(deps.config).consoleUrl}#/pair`;
  return {
    ok: true,
    pairing_id: record.id,
    device_code: deviceCode,
    user_code: formatUserCode(userCode),
    // The code goes in the fragment: a browser never sends it to the server or in a Referer.
    verification_url: page,
    verification_url_complete: `${page}/${formatUserCode(userCode)}`,
    expires_at: record.expires_at,
    expires_in: PAIRING_TTL_MS / 1000,
    interval: POLL_INTERVAL_S,
  };
}

/** A live pending pairing by the code a person typed or followed; undefined otherwise. */
export async function findPendingPairing(deps: Pick<Deps, 'clock'>, store: PairingStore, userCode: string) {
  const code = normalizeUserCode(userCode);
  if (code.length !== CODE_LENGTH) return undefined;
  const record = await store.findByCode(hashUserCode(code));
  if (record?.status !== 'pending' || record.expires_at <= isoAt(deps.clock.now())) return undefined;
  return record;
}

export const presentPairing = (r: PairingRecord, userCode: string) => ({
  user_code: formatUserCode(normalizeUserCode(userCode)),
  status: r.status,
  client: r.client,
  user_agent: r.user_agent,
  ip: r.ip,
  created_at: r.created_at,
  expires_at: r.expires_at,
});

/**
 * The approval: binds the pairing to the approving session and user, and records how that session
 * logged in and the password as it stood (the collection checks both still hold). The route has
 * checked the login is recent. `user` is what the request's guard read, at or before this moment:
 * a password change racing the approval then makes the collection refuse, never pass.
 */
export function approvePairing(
  deps: Pick<Deps, 'clock'>,
  store: PairingStore,
  record: PairingRecord,
  approver: { session: SessionRecord; user: UserRecord },
) {
  return store.transition(
    record.id,
    'pending',
    {
      status: 'approved',
      user_id: approver.session.user_id,
      approved_by_session: approver.session.id,
      approved_method: approver.session.method,
      approver_password_changed_at: approver.user.password_changed_at ?? null,
    },
    isoAt(deps.clock.now()),
  );
}

export function denyPairing(deps: Pick<Deps, 'clock'>, store: PairingStore, record: PairingRecord) {
  return store.transition(record.id, 'pending', { status: 'denied' }, isoAt(deps.clock.now()));
}
