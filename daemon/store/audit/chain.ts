import { createHash, hash as oneShotHash } from 'node:crypto';
import type { AuditBreak, AuditEntry, AuditVerification, NewAuditEntry } from '../audit-types.js';

/** The `prev` of a stream's first entry. */
export const GENESIS = '0'.repeat(64);

/** The action of the entry a retention sweep leaves in a stream (what it removed, so the chain still verifies). */
export const CHECKPOINT_ACTION = 'audit.retention';

export const ACCOUNT_STREAM = 'account';

export const streamOf = (entry: Pick<NewAuditEntry, 'company_id'>): string => entry.company_id ?? ACCOUNT_STREAM;

export const auditId = (position: number): string => `aud_${String(position).padStart(16, '0')}`;

export const positionOf = (id: string): number | null => {
  const m = /^aud_(\d{16})$/.exec(id);
  return m ? Number(m[1]) : null;
};

/**
 * JSON with every object's keys sorted, at every depth: the bytes the hash covers do not depend on
 * how a store happened to order keys (PostgreSQL's jsonb reorders them, a hand edit may too).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** The hash an entry must carry: every field but `hash` itself, `prev` included, so each entry seals the one before. */
export function hashOf(entry: Omit<AuditEntry, 'hash'> & { hash?: string }): string {
  const { hash: _ignored, ...rest } = entry;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

/** Gives a new entry its place: id, stream, seq, the previous hash, and its own hash. */
export function sealEntry(
  entry: NewAuditEntry,
  position: number,
  head: { seq: number; hash: string } | undefined,
): AuditEntry {
  return sealLine(entry, position, head).entry;
}

/**
 * Seals an entry and writes its stored line in the same pass: the canonical encoding the hash
 * covers is the line itself with `"hash":"…"` put at its sorted place, so storing an entry costs no
 * second serialisation. The entry returned is plain JSON data (as a JSON round trip would leave it:
 * undefined fields dropped, dates as text), so it is the one every later read returns.
 */
export function sealLine(
  entry: NewAuditEntry,
  position: number,
  head: { seq: number; hash: string } | undefined,
): { entry: AuditEntry; line: string } {
  const plain = toPlain(unsealedOf(entry, position, head)) as Record<string, unknown>;
  // The fields' canonical order is fixed (unsealedOf's keys, sorted once): before `hash`, and after.
  let before = '';
  let after = '';
  for (const k of SEALED_KEYS) {
    const v = plain[k];
    if (v === undefined) continue;
    const part = `"${k}":${typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v)}`;
    if (k < 'hash') before = before ? `${before},${part}` : part;
    else after = after ? `${after},${part}` : part;
  }
  const hash = sha256Hex(`{${before}${before && after ? ',' : ''}${after}}`);
  plain.hash = hash;
  const line = `{${before}${before ? ',' : ''}"hash":"${hash}"${after ? ',' : ''}${after}}`;
  return { entry: plain as unknown as AuditEntry, line };
}

/** One-shot SHA-256 where Node has it (20.12+: cheaper than a Hash object), the Hash object otherwise. */
const sha256Hex: (text: string) => string =
  typeof oneShotHash === 'function'
    ? (text) => oneShotHash('sha256', text, 'hex')
    : (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Every field of a sealed entry but `hash`, in canonical (sorted) order. */
const SEALED_KEYS = Object.keys(unsealedOf({ actor: {} } as NewAuditEntry, 1, undefined)).sort() as (keyof ReturnType<
  typeof unsealedOf
>)[];

/**
 * A value as `JSON.parse(JSON.stringify(value))` would give it back, built in one walk: undefined,
 * functions and symbols dropped from objects (null in arrays), non-finite numbers null, `toJSON`
 * honoured (a Date becomes its text).
 */
function toPlain(value: unknown, key = ''): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'object': {
      const json = (value as { toJSON?: unknown }).toJSON;
      if (typeof json === 'function') return toPlain(json.call(value, key), key);
      if (Array.isArray(value)) return value.map((v, i) => toPlain(v, String(i)) ?? null);
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value)) {
        const v = toPlain((value as Record<string, unknown>)[k], k);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    default:
      return undefined;
  }
}

/** The fields an entry is sealed with, absent optional ones as null. */
function unsealedOf(e: NewAuditEntry, position: number, head: { seq: number; hash: string } | undefined) {
  return {
    id: auditId(position),
    stream: streamOf(e),
    seq: (head?.seq ?? 0) + 1,
    prev: head?.hash ?? GENESIS,
    at: e.at,
    actor: {
      type: e.actor.type,
      user_id: e.actor.user_id ?? null,
      key_id: e.actor.key_id ?? null,
      client_id: e.actor.client_id ?? null,
      grant_id: e.actor.grant_id ?? null,
    },
    user_id: e.user_id ?? null,
    company_id: e.company_id ?? null,
    action: e.action,
    target: e.target ?? null,
    outcome: e.outcome,
    reason: e.reason ?? null,
    request_id: e.request_id ?? null,
    client_address: e.client_address ?? null,
    user_agent: e.user_agent ?? null,
    details: e.details ?? {},
  };
}

/**
 * Walks every stream's chain in stored order and names the first entry that does not hold: a hash
 * that does not match its content (an edit), a `prev` that is not the hash before it or a seq that
 * skips (a removal), a seq or id going backwards (a reordering). A stream that starts after seq 1
 * holds only if a checkpoint of a retention sweep, itself in the chain, names what was removed.
 * A cut tail (the newest entries removed) leaves a shorter chain that holds: compare `heads` with
 * a copy kept elsewhere to see one.
 */
export function verifyEntries(stored: Iterable<{ entry: AuditEntry | null; where: string }>): AuditVerification {
  const streams = new Map<string, AuditEntry[]>();
  let entries = 0;
  let lastPosition = 0;
  let broken: AuditBreak | null = null;
  const order = new Map<string, number>();
  let brokenAt = Infinity;
  for (const { entry, where } of stored) {
    entries++;
    if (!entry) {
      if (brokenAt === Infinity) {
        broken = {
          stream: '?',
          entry_id: null,
          seq: null,
          problem: `${where} is not an audit entry (damaged or edited)`,
        };
        brokenAt = entries;
      }
      continue;
    }
    order.set(entry.id, entries);
    const position = positionOf(entry.id) ?? 0;
    if (position <= lastPosition && brokenAt === Infinity) {
      broken = at(entry, `its id is not after the previous entry's (${auditId(lastPosition)}): entries were reordered`);
      brokenAt = entries;
    }
    lastPosition = Math.max(lastPosition, position);
    const list = streams.get(entry.stream) ?? [];
    list.push(entry);
    streams.set(entry.stream, list);
  }
  const heads: AuditVerification['heads'] = {};
  const breaks = broken ? [broken] : [];
  for (const [stream, list] of streams) {
    const problem = verifyStream(list);
    if (problem) breaks.push(problem);
    const last = list.at(-1);
    if (last) heads[stream] = { seq: last.seq, hash: last.hash };
  }
  // The first break in stored order: the one a reader of the files meets first.
  const rank = (b: AuditBreak) => (b === broken ? brokenAt : (order.get(b.entry_id ?? '') ?? 0));
  const first = breaks.sort((a, b) => rank(a) - rank(b))[0] ?? null;
  return { ok: first === null, streams: streams.size, entries, heads, broken: first };
}

function verifyStream(list: AuditEntry[]): AuditBreak | null {
  const first = list[0];
  if (!first) return null;
  if (first.seq !== 1 || first.prev !== GENESIS) {
    const covered = list.some(
      (e) =>
        e.action === CHECKPOINT_ACTION &&
        e.details.through_seq === first.seq - 1 &&
        e.details.through_hash === first.prev &&
        e.hash === hashOf(e),
    );
    if (!covered)
      return at(first, `the stream starts at seq ${first.seq} and no retention checkpoint names what came before`);
  }
  let prev: AuditEntry | null = null;
  for (const entry of list) {
    if (entry.hash !== hashOf(entry)) return at(entry, 'its content does not match its hash: the entry was edited');
    if (prev) {
      if (entry.seq !== prev.seq + 1)
        return at(entry, `seq ${entry.seq} follows seq ${prev.seq}: entries are missing or reordered`);
      if (entry.prev !== prev.hash) return at(entry, 'its prev is not the hash of the entry before it');
    }
    prev = entry;
  }
  return null;
}

const at = (entry: AuditEntry, problem: string): AuditBreak => ({
  stream: entry.stream,
  entry_id: entry.id,
  seq: entry.seq,
  problem,
});

/** A stored line as an entry, or null when it is not one (damaged, or edited into something else). */
export function parseEntry(text: string): AuditEntry | null {
  try {
    const e = JSON.parse(text) as AuditEntry;
    if (!e || typeof e !== 'object' || typeof e.id !== 'string' || typeof e.stream !== 'string') return null;
    if (typeof e.seq !== 'number' || typeof e.hash !== 'string' || typeof e.prev !== 'string') return null;
    if (!e.actor || typeof e.actor !== 'object' || !e.details || typeof e.details !== 'object') return null;
    return e;
  } catch {
    return null;
  }
}

/** An entry the operator's own work leaves (a retention checkpoint, an export or import): no request behind it. */
export function operatorEntry(fields: {
  at: string;
  action: string;
  company_id?: string | null;
  details: Record<string, unknown>;
}): NewAuditEntry {
  return {
    at: fields.at,
    actor: { type: 'operator', user_id: null, key_id: null, client_id: null, grant_id: null },
    user_id: null,
    company_id: fields.company_id ?? null,
    action: fields.action,
    target: null,
    outcome: 'succeeded',
    reason: null,
    request_id: null,
    client_address: null,
    user_agent: null,
    details: fields.details,
  };
}
