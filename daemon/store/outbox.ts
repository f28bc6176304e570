import type { MailMessage } from '../../shared/wire.js';
import type { Clock } from '../clock.js';
import { isoAt } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import type { Doc } from './doc.js';
import type { Sealer } from './sealer.js';
import type { MailOutbox, NewMail } from './types.js';

interface SealedMail {
  id: string;
  to: string;
  /** Only on rows written before subjects were sealed; new rows keep it inside `sealed`. */
  subject?: string;
  /** `{ subject, text, code, link }`, sealed: a subject may carry the code ("Your svc login code: 183920"). */
  sealed: string;
  created_at: string;
}

export interface OutboxData {
  mail: SealedMail[];
}

export const outboxDefaults = (): OutboxData => ({ mail: [] });

export function createOutbox(doc: Doc<OutboxData>, deps: { clock: Clock; ids: IdGenerator; sealer: Sealer; max: number }): MailOutbox {
  // Opened messages, by id: a `svc mail --follow` poll re-reads the same rows every second, and
  // opening AES-GCM per row per read was most of its cost. Only the disk copy must stay sealed;
  // this process holds the key anyway. Rows dropped from the outbox leave the cache with them.
  const opened = new Map<string, MailMessage>();
  const unseal = (m: SealedMail): MailMessage => {
    const hit = opened.get(m.id);
    if (hit) return { ...hit };
    const { subject, text, code, link } = JSON.parse(deps.sealer.open(m.sealed)) as Partial<Pick<MailMessage, 'subject'>> & Pick<MailMessage, 'text' | 'code' | 'link'>;
    const message = { id: m.id, to: m.to, subject: subject ?? m.subject ?? '', text, code, link, created_at: m.created_at };
    opened.set(m.id, message);
    return { ...message };
  };
  // Rows by lower-cased recipient, in outbox order, built on first use and kept in step inside the
  // same synchronous update that changes the rows: `?to=` reads one short list instead of
  // lower-casing every address in the outbox on every poll.
  let byRecipient: Map<string, SealedMail[]> | null = null;
  const indexRow = (index: Map<string, SealedMail[]>, m: SealedMail) => {
    const key = m.to.toLowerCase();
    const rows = index.get(key);
    if (rows) rows.push(m);
    else index.set(key, [m]);
  };
  const recipientIndex = () => {
    if (!byRecipient) {
      byRecipient = new Map();
      for (const m of doc.data.mail) indexRow(byRecipient, m);
    }
    return byRecipient;
  };
  const forget = (dropped: SealedMail) => {
    opened.delete(dropped.id);
    if (!byRecipient) return;
    // The outbox drops its oldest rows, so each is the first of its recipient's list.
    const key = dropped.to.toLowerCase();
    const rows = byRecipient.get(key);
    if (rows?.[0] === dropped) rows.shift();
    if (rows?.length === 0) byRecipient.delete(key);
  };
  return {
    async record(mail: NewMail) {
      const row: SealedMail = {
        id: deps.ids('mail'),
        to: mail.to,
        sealed: deps.sealer.seal(JSON.stringify({ subject: mail.subject, text: mail.text, code: mail.code ?? null, link: mail.link ?? null })),
        created_at: isoAt(deps.clock.now()),
      };
      await doc.update((data) => {
        data.mail.push(row);
        if (byRecipient) indexRow(byRecipient, row);
        if (data.mail.length > deps.max) data.mail.splice(0, data.mail.length - deps.max).forEach(forget);
      });
      return unseal(row);
    },
    async list(filter = {}) {
      const rows = filter.to ? (recipientIndex().get(filter.to.toLowerCase()) ?? []) : doc.data.mail;
      const since = filter.sinceId;
      return (since ? rows.filter((m) => m.id > since) : rows).map(unseal);
    },
  };
}
