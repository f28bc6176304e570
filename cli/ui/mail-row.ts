import type { MailMessage } from '../../shared/wire.js';
import { formatClockTime, summarizeContent } from './event-row.js';
import type { LiveCell, LiveRow } from './live-feed.js';

/** One line per captured e-mail: time, address, subject, and the code or link it carries. */
export function buildMailRow(m: MailMessage): LiveRow {
  const cells: LiveCell[] = [
    { text: formatClockTime(m.created_at), dim: true },
    { text: m.to },
    { text: summarizeContent(m.subject, 80), bold: true },
  ];
  if (m.code) cells.push({ text: `code ${m.code}`, color: 'yellow', bold: true });
  if (m.link) cells.push({ text: m.link, color: 'cyan' });
  return { key: m.id, cells };
}
