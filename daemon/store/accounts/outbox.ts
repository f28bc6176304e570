import type { MailMessage } from '../../../shared/wire.js';
import type { Clock } from '../../clock.js';
import { isoAt } from '../../clock.js';
import type { IdGenerator } from '../../ids.js';
import type { Sealer } from '../sealer.js';
import type { MailOutbox, NewMail } from '../types.js';
import type { AccountTables, SealedMail } from './tables.js';

export interface OutboxDeps {
  clock: Clock;
  ids: IdGenerator;
  sealer: Sealer;
  max: number;
}

/** The stored row of a new message: subject and bodies sealed (they hold live codes). */
export function sealMail(deps: Omit<OutboxDeps, 'max'>, message: NewMail): SealedMail {
  return {
    id: deps.ids('mail'),
    to: message.to,
    sealed: deps.sealer.seal(
      JSON.stringify({
        subject: message.subject,
        text: message.text,
        code: message.code ?? null,
        link: message.link ?? null,
      }),
    ),
    created_at: isoAt(deps.clock.now()),
  };
}

/**
 * Opens stored messages, by id through a cache of at most `max` entries: a `svc mail --follow` poll
 * re-reads the same rows every second, and opening AES-GCM per row per read was most of its cost.
 * Rows never change once written, so a cached message cannot be stale. Only the stored copy must
 * stay sealed; this process holds the key anyway.
 */
export function createMailOpener(sealer: Sealer, max: number) {
  const opened = new Map<string, MailMessage>();
  return {
    open(m: SealedMail): MailMessage {
      const hit = opened.get(m.id);
      if (hit) return { ...hit };
      const { subject, text, code, link } = JSON.parse(sealer.open(m.sealed)) as Partial<Pick<MailMessage, 'subject'>> &
        Pick<MailMessage, 'text' | 'code' | 'link'>;
      const message = {
        id: m.id,
        to: m.to,
        subject: subject ?? m.subject ?? '',
        text,
        code,
        link,
        created_at: m.created_at,
      };
      // Past the cap the entry cached first goes (Map keeps insertion order).
      if (opened.size >= Math.max(max, 1)) {
        for (const first of opened.keys()) {
          opened.delete(first);
          break;
        }
      }
      opened.set(m.id, message);
      return { ...message };
    },
    forget: (id: string) => opened.delete(id),
  };
}

/**
 * Every message the daemon "sends", sealed at rest, oldest first (the table's order). Past `max`
 * the oldest rows go in the same write that adds one: a few removes, never a rewrite of the outbox.
 * `?to=` reads the recipient index (lower-cased address) instead of filtering every row.
 */
export function createOutbox(t: AccountTables, deps: OutboxDeps): MailOutbox {
  const { space, mail } = t;
  const opener = createMailOpener(deps.sealer, deps.max);
  return {
    async record(message: NewMail) {
      const row = sealMail(deps, message);
      await space.write((tx) => {
        tx.put(mail, row);
        // Reads inside the write see the table before it: `size + 1` rows after this put. The oldest
        // are first in the table's order; a cap lowered since the last start is caught up two rows a write.
        let over = Math.min(mail.size + 1 - deps.max, 2);
        for (const old of mail.all()) {
          if (over-- <= 0) break;
          tx.remove(mail, old.id);
          opener.forget(old.id);
        }
      });
      return opener.open(row);
    },
    async list(filter = {}) {
      const rows = filter.to ? mail.lookup('to', filter.to.toLowerCase()) : [...mail.all()];
      const since = filter.sinceId;
      return (since ? rows.filter((m) => m.id > since) : rows).map(opener.open);
    },
  };
}
