import { parseEventId } from '../store/event-log/event-id.js';
import type { ArchiveHeader } from './archive-format.js';
import { ArchiveRefused, readArchive } from './archive-reader.js';
import { EVENTS } from './archive-tables.js';

/** What an archive holds, for the command's answer. */
export interface ArchiveSummary {
  header: ArchiveHeader;
  records: number;
  companies: number;
  events: number;
}

/**
 * The first of the two readings of an import: the whole file, checked, before anything is
 * written. Besides what readArchive checks: each Company's records are together (the loaders
 * open one Company at a time), and its event ids are well formed and strictly increasing (the
 * order of the log, which both stores keep).
 */
export async function checkArchive(file: string): Promise<ArchiveSummary> {
  let header: ArchiveHeader | undefined;
  let lineNo = 1;
  let records = 0;
  let events = 0;
  const done = new Set<string>();
  let current: string | null = null;
  let lastSeq = 0;
  for await (const r of readArchive(file, (h) => (header = h))) {
    lineNo++;
    records++;
    if (r.company !== current) {
      if (r.company !== null && done.has(r.company))
        throw new ArchiveRefused(file, `the records of Company ${r.company} are not together`, lineNo);
      if (current !== null) done.add(current);
      current = r.company;
      lastSeq = 0;
    }
    if (r.table !== EVENTS) continue;
    const seq = parseEventId(r.record.id);
    if (seq === null || seq <= lastSeq)
      throw new ArchiveRefused(file, `event id ${JSON.stringify(r.record.id)} is malformed or out of order`, lineNo);
    lastSeq = seq;
    events++;
  }
  if (current !== null) done.add(current);
  return { header: header!, records, companies: done.size, events };
}
