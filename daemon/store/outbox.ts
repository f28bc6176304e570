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
  const unseal = (m: SealedMail): MailMessage => {
    const { subject, text, code, link } = JSON.parse(deps.sealer.open(m.sealed)) as Partial<Pick<MailMessage, 'subject'>> & Pick<MailMessage, 'text' | 'code' | 'link'>;
    return { id: m.id, to: m.to, subject: subject ?? m.subject ?? '', text, code, link, created_at: m.created_at };
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
        if (data.mail.length > deps.max) data.mail.splice(0, data.mail.length - deps.max);
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
