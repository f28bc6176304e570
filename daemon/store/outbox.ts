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
  subject: string;
  /** `{ text, code, link }`, sealed. */
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
    const { text, code, link } = JSON.parse(deps.sealer.open(m.sealed)) as Pick<MailMessage, 'text' | 'code' | 'link'>;
    const message = { id: m.id, to: m.to, subject: m.subject, text, code, link, created_at: m.created_at };
    opened.set(m.id, message);
    return { ...message };
  };
  return {
    async record(mail: NewMail) {
      const row: SealedMail = {
        id: deps.ids('mail'),
        to: mail.to,
        subject: mail.subject,
        sealed: deps.sealer.seal(JSON.stringify({ text: mail.text, code: mail.code ?? null, link: mail.link ?? null })),
        created_at: isoAt(deps.clock.now()),
      };
      await doc.update((data) => {
        data.mail.push(row);
        if (data.mail.length > deps.max) {
          for (const dropped of data.mail.splice(0, data.mail.length - deps.max)) opened.delete(dropped.id);
        }
      });
      return unseal(row);
    },
    async list(filter = {}) {
      const to = filter.to?.toLowerCase();
      return doc.data.mail
        .filter((m) => (!to || m.to.toLowerCase() === to) && (!filter.sinceId || m.id > filter.sinceId))
        .map(unseal);
    },
  };
}
