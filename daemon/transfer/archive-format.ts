import { VERSION } from '../../shared/version.js';

/**
 * An archive (`svc admin export`) is JSON Lines:
 *   {"svc_archive":1,"svc_version":"0.1.0","source":"data-folder","created_at":"…"}
 *   {"table":"accounts.users","company":null,"record":{…}}            one line per record
 *   {"table":"events","company":"cmp_…","record":{"id":"evt_…",…}}
 *   {"end":true,"records":1234,"sha256":"…"}
 * The last line counts the records and carries the SHA-256 of every line before it, so a copy cut
 * short or changed by hand is refused before anything is imported. It is a check against damage,
 * not a signature: whoever can edit the archive can also recompute it.
 */
export const ARCHIVE_FORMAT = 1;

export type SourceKind = 'data-folder' | 'postgres';

export interface ArchiveHeader {
  svc_archive: number;
  svc_version: string;
  source: SourceKind;
  created_at: string;
}

export const headerFor = (source: SourceKind, nowMs: number): Omit<ArchiveHeader, 'svc_archive'> => ({
  svc_version: VERSION,
  source,
  created_at: new Date(nowMs).toISOString(),
});
