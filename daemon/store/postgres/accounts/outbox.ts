import type pg from 'pg';
import { createMailOpener, type OutboxDeps, sealMail } from '../../accounts/outbox.js';
import type { SealedMail } from '../../accounts/tables.js';
import { sqlText } from '../runtime/doc-table.js';
import type { MailOutbox } from '../../types.js';

/**
 * Captured mail on PostgreSQL, sealed with the deployment's mail key before it leaves the daemon
 * (the rows hold live codes), oldest first. Adding a message and dropping the oldest past `max` is
 * one statement. Two daemons adding at once may each leave one row over the cap; the next add trims it.
 */
export function createPostgresOutbox(pool: pg.Pool, deps: OutboxDeps): MailOutbox {
  const opener = createMailOpener(deps.sealer, deps.max);
  return {
    async record(message) {
      const row = sealMail(deps, message);
      // The DELETE does not see the row being added (one snapshot): it keeps the newest max - 1 others.
      await pool.query(
        `WITH added AS (
           INSERT INTO svc_mail (id, recipient, doc) VALUES ($1, $2, $3) RETURNING pos
         )
         DELETE FROM svc_mail WHERE pos <= (SELECT pos FROM svc_mail ORDER BY pos DESC OFFSET $4 LIMIT 1)`,
        [sqlText(row.id), sqlText(row.to.toLowerCase()), JSON.stringify(row), Math.max(deps.max - 1, 0)],
      );
      return opener.open(row);
    },
    async list(filter = {}) {
      const values: unknown[] = [];
      const where: string[] = [];
      if (filter.to) {
        values.push(sqlText(filter.to.toLowerCase()));
        where.push(`recipient = $${values.length}`);
      }
      if (filter.sinceId) {
        // Byte order, as the data folder compares ids (whatever the database's collation).
        values.push(sqlText(filter.sinceId));
        where.push(`id COLLATE "C" > $${values.length}`);
      }
      const { rows } = await pool.query<{ doc: SealedMail }>(
        `SELECT doc FROM svc_mail${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY pos`,
        values,
      );
      return rows.map((r) => opener.open(r.doc));
    },
  };
}
