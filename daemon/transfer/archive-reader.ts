import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ARCHIVE_FORMAT, type ArchiveHeader } from './archive-format.js';
import { problemOf, type ArchiveRecord } from './archive-tables.js';

/** A refusal to read an archive: one line naming the file and, where it applies, the line. */
export class ArchiveRefused extends Error {
  constructor(file: string, why: string, lineNo?: number) {
    super(`cannot import ${file}${lineNo ? ` (line ${lineNo})` : ''}: ${why}`);
    this.name = 'ArchiveRefused';
  }
}

/**
 * Reads an archive line by line, checking as it goes: the header's format version, each record's
 * shape, and at the end the closing line's count and SHA-256 over everything before it. A loader
 * reads it twice: once to the end to check it (nothing is written until the whole file is known
 * good), once to load; a file changed between the two fails the second check and the load is undone.
 */
export async function* readArchive(
  file: string,
  onHeader: (header: ArchiveHeader) => void = () => {},
): AsyncGenerator<ArchiveRecord> {
  const hash = createHash('sha256');
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lineNo = 0;
  let records = 0;
  let end: { records?: unknown; sha256?: unknown } | null = null;
  try {
    for await (const line of lines) {
      lineNo++;
      if (end) throw new ArchiveRefused(file, 'there is more after the closing line (the archive was changed)', lineNo);
      const value = parseLine(file, line, lineNo);
      if (lineNo === 1) {
        onHeader(checkHeader(file, value));
      } else if (value.end === true) {
        end = value;
        continue;
      } else {
        const record = value as unknown as ArchiveRecord;
        const problem = problemOf(record);
        if (problem) throw new ArchiveRefused(file, problem, lineNo);
        records++;
        hash.update(`${line}\n`);
        yield { table: record.table, company: record.company, record: record.record };
        continue;
      }
      hash.update(`${line}\n`);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ArchiveRefused(file, 'no such file');
    throw err;
  } finally {
    lines.close();
  }
  if (lineNo === 0) throw new ArchiveRefused(file, 'the file is empty');
  if (!end) throw new ArchiveRefused(file, 'the archive is incomplete: its closing line is missing (cut short?)');
  if (end.records !== records || end.sha256 !== hash.digest('hex'))
    throw new ArchiveRefused(file, 'the archive does not match its checksum (damaged or changed by hand)');
}

function parseLine(file: string, line: string, lineNo: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new ArchiveRefused(file, 'the line is not JSON (damaged, or cut short)', lineNo);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ArchiveRefused(file, 'the line is not a JSON object', lineNo);
  return value as Record<string, unknown>;
}

function checkHeader(file: string, value: Record<string, unknown>): ArchiveHeader {
  if (value.svc_archive === undefined) throw new ArchiveRefused(file, 'this is not an svc archive');
  if (value.svc_archive !== ARCHIVE_FORMAT)
    throw new ArchiveRefused(
      file,
      `archive format ${JSON.stringify(value.svc_archive)} is not supported by this svc (it reads format ${ARCHIVE_FORMAT}; svc_version ${String(value.svc_version)} wrote it)`,
    );
  return value as unknown as ArchiveHeader;
}
