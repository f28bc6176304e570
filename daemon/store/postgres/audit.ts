import type pg from 'pg';
import type {
  AuditEntry,
  AuditPage,
  AuditQuery,
  AuditStore,
  AuditVerification,
  NewAuditEntry,
} from '../audit-types.js';
import {
  CHECKPOINT_ACTION,
  canonicalJson,
  operatorEntry,
  parseEntry,
  positionOf,
  sealLine,
  streamOf,
  verifyEntries,
} from '../audit/chain.js';
import { withTransaction } from './connect.js';

/** Any fixed number, the same in every svc daemon: appends of every daemon take it in turn. */
const AUDIT_LOCK = 7_566_948;

interface Waiting {
  entry: NewAuditEntry;
  resolve(e: AuditEntry): void;
  reject(err: Error): void;
}

/**
 * The audit trail in team mode. Appends are group-committed: what arrives while a transaction is
 * in flight goes out in the next one, a single transaction for the whole batch. Each transaction
 * takes one advisory lock, reads the heads of the streams it appends to, seals the entries on
 * them and moves the heads, so with several daemons writing every stream stays one chain and
 * `pos` is commit order. An append resolves once its transaction committed.
 */
export function createPostgresAuditStore(pool: pg.Pool): AuditStore {
  let queue: Waiting[] = [];
  let flushing: Promise<void> | null = null;
  let closed = false;

  const drain = async () => {
    try {
      await new Promise<void>((r) => setImmediate(r));
      while (queue.length) {
        const batch = queue;
        queue = [];
        try {
          const sealed = await withTransaction(pool, (client) =>
            appendBatch(
              client,
              batch.map((w) => w.entry),
            ),
          );
          for (const [i, w] of batch.entries()) w.resolve(sealed[i]!);
        } catch (err) {
          // One entry the database refuses must not take the others of its batch with it: each is tried alone.
          if (batch.length === 1) batch[0]!.reject(failure(err));
          else
            for (const w of batch)
              await withTransaction(pool, (client) => appendBatch(client, [w.entry])).then(
                (sealed) => w.resolve(sealed[0]!),
                (e) => w.reject(failure(e)),
              );
        }
      }
    } finally {
      flushing = null;
    }
  };

  return {
    append(entry) {
      if (closed) return Promise.reject(new Error('the audit trail is closed'));
      return new Promise((resolve, reject) => {
        queue.push({ entry, resolve, reject });
        flushing ??= drain();
      });
    },
    query: (q) => queryEntries(pool, q),
    verify: () => verifyTable(pool),
    async sweep(beforeIso, at) {
      return withTransaction(pool, (client) => sweepTable(client, beforeIso, at));
    },
    async flush() {
      while (flushing) await flushing;
    },
    async close() {
      while (flushing) await flushing;
      closed = true;
    },
  };
}

const failure = (err: unknown) => new Error(`the audit trail could not be written: ${(err as Error).message}`);

async function appendBatch(client: pg.PoolClient, entries: NewAuditEntry[]): Promise<AuditEntry[]> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK]);
  const streams = [...new Set(entries.map(streamOf))];
  const heads = new Map<string, { seq: number; hash: string }>();
  const { rows } = await client.query<{ stream: string; seq: string; hash: string }>(
    'SELECT stream, seq, hash FROM svc_audit_heads WHERE stream = ANY($1::text[])',
    [streams],
  );
  for (const r of rows) heads.set(r.stream, { seq: Number(r.seq), hash: r.hash });
  const top = await client.query<{ pos: string | null }>('SELECT max(pos) AS pos FROM svc_audit_entries', []);
  let position = Number(top.rows[0]?.pos ?? 0);
  const lines: string[] = [];
  const sealed = entries.map((e) => {
    const { entry, line } = sealLine(e, ++position, heads.get(streamOf(e)));
    heads.set(entry.stream, { seq: entry.seq, hash: entry.hash });
    lines.push(line);
    return entry;
  });
  await insertEntries(client, sealed, lines);
  for (const stream of streams) {
    const head = heads.get(stream)!;
    await client.query(
      `INSERT INTO svc_audit_heads (stream, seq, hash) VALUES ($1, $2, $3)
       ON CONFLICT (stream) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`,
      [stream, head.seq, head.hash],
    );
  }
  return sealed;
}

/** Stores sealed entries; `lines` are their stored text when the caller already has it (else each entry's canonical JSON). */
export async function insertEntries(
  client: pg.PoolClient,
  sealed: AuditEntry[],
  lines: string[] = sealed.map((e) => canonicalJson(e)),
): Promise<void> {
  const col = <T>(f: (e: AuditEntry) => T) => sealed.map(f);
  await client.query(
    `INSERT INTO svc_audit_entries (pos, stream, seq, at, user_id, company_id, action, outcome, actor_user, actor_key, actor_client, body)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[],
                          $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])`,
    [
      col((e) => positionOf(e.id)),
      col((e) => e.stream),
      col((e) => e.seq),
      col((e) => e.at),
      col((e) => e.user_id),
      col((e) => e.company_id),
      col((e) => e.action),
      col((e) => e.outcome),
      col((e) => e.actor.user_id),
      col((e) => e.actor.key_id),
      col((e) => e.actor.client_id),
      lines,
    ],
  );
}

async function queryEntries(pool: pg.Pool, q: AuditQuery): Promise<AuditPage> {
  const where: string[] = [];
  const values: unknown[] = [];
  const add = (sql: (n: string) => string, v: unknown) => {
    values.push(v);
    where.push(sql(`$${values.length}`));
  };
  if (q.viewer !== 'all') {
    values.push(q.viewer.user_id, [...q.viewer.company_ids]);
    where.push(`(user_id = $${values.length - 1} OR company_id = ANY($${values.length}::text[]))`);
  }
  if (q.company_id !== undefined) add((n) => `company_id = ${n}`, q.company_id);
  if (q.action !== undefined) add((n) => `(action = ${n} OR starts_with(action, ${n} || '.'))`, q.action);
  if (q.actor !== undefined) add((n) => `(actor_user = ${n} OR actor_key = ${n} OR actor_client = ${n})`, q.actor);
  if (q.key_id !== undefined) add((n) => `actor_key = ${n}`, q.key_id);
  if (q.outcome !== undefined) add((n) => `outcome = ${n}`, q.outcome);
  if (q.since !== undefined) add((n) => `at >= ${n}`, q.since);
  if (q.until !== undefined) add((n) => `at < ${n}`, q.until);
  const ascending = q.after !== undefined;
  if (q.after !== undefined) add((n) => `pos > ${n}`, positionOf(q.after) ?? 0);
  if (q.before !== undefined) add((n) => `pos < ${n}`, positionOf(q.before) ?? 0);
  values.push(q.limit + 1);
  const text = `SELECT body FROM svc_audit_entries ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY pos ${ascending ? 'ASC' : 'DESC'} LIMIT $${values.length}`;
  // Unnamed: the filters combine into many texts, and each is planned for its values.
  const { rows } = await pool.query<{ body: string }>({ text, values });
  const entries = rows.slice(0, q.limit).map((r) => JSON.parse(r.body) as AuditEntry);
  return { entries, next_cursor: rows.length > q.limit ? (entries.at(-1)?.id ?? null) : null };
}

async function verifyTable(pool: pg.Pool): Promise<AuditVerification> {
  const stored: { entry: AuditEntry | null; where: string }[] = [];
  let after = -1;
  for (;;) {
    const { rows } = await pool.query<{ pos: string; body: string }>(
      'SELECT pos, body FROM svc_audit_entries WHERE pos > $1 ORDER BY pos LIMIT 5000',
      [after],
    );
    for (const r of rows) stored.push({ entry: parseEntry(r.body), where: `svc_audit_entries row pos ${r.pos}` });
    if (rows.length < 5000) break;
    after = Number(rows.at(-1)!.pos);
  }
  return verifyEntries(stored);
}

/** Per stream, removes the entries older than the cutoff (a prefix of the stream) after appending the checkpoint naming them. */
async function sweepTable(client: pg.PoolClient, beforeIso: string, at: string): Promise<number> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK]);
  const { rows } = await client.query<{ stream: string; seq: string; n: string; body: string }>(
    `SELECT DISTINCT ON (stream) stream, seq, body, count(*) OVER (PARTITION BY stream) AS n
       FROM svc_audit_entries WHERE at < $1 ORDER BY stream, seq DESC`,
    [beforeIso],
  );
  if (rows.length === 0) return 0;
  const checkpoints: NewAuditEntry[] = rows.map((r) => {
    const last = JSON.parse(r.body) as AuditEntry;
    return operatorEntry({
      at,
      action: CHECKPOINT_ACTION,
      company_id: r.stream === 'account' ? null : r.stream,
      details: { removed: Number(r.n), through_seq: last.seq, through_hash: last.hash, before: beforeIso },
    });
  });
  await appendBatch(client, checkpoints);
  let removed = 0;
  for (const r of rows) {
    const res = await client.query('DELETE FROM svc_audit_entries WHERE stream = $1 AND seq <= $2', [r.stream, r.seq]);
    removed += res.rowCount ?? 0;
  }
  return removed;
}
