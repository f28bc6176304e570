/**
 * Event ids: `evt_` + a 16-digit zero-padded sequence number. Fixed width makes string order equal
 * append order, so a plain string comparison (a client's, SQLite's, a sort) agrees with the log.
 * The sequence comes from the log itself (highest id on disk + 1), never from the clock, so ids
 * stay strictly increasing when the clock steps back and continue above the last id after a restart.
 */
const PREFIX = 'evt_';
const WIDTH = 16;

export function formatEventId(seq: number): string {
  return PREFIX + String(seq).padStart(WIDTH, '0');
}

/** The sequence number of a well-formed id, or null. */
export function parseEventId(id: unknown): number | null {
  // A character loop rather than a regex: this runs for every line at start.
  if (typeof id !== 'string' || id.length !== PREFIX.length + WIDTH || !id.startsWith(PREFIX)) return null;
  let seq = 0;
  for (let i = PREFIX.length; i < id.length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return null;
    seq = seq * 10 + digit;
  }
  return Number.isSafeInteger(seq) ? seq : null;
}
