/**
 * Event ids: `evt_` + a 16-digit zero-padded sequence number. Fixed width makes string order equal
 * append order, so a plain string comparison (a client's, SQLite's, a sort) agrees with the log.
 * The sequence comes from the log itself (highest id on disk + 1), never from the clock, so ids
 * stay strictly increasing when the clock steps back and continue above the last id after a restart.
 */
const PREFIX = 'evt_';
const WIDTH = 16;
const SHAPE = /^evt_\d{16}$/;

export function formatEventId(seq: number): string {
  return PREFIX + String(seq).padStart(WIDTH, '0');
}

/** The sequence number of a well-formed id, or null. */
export function parseEventId(id: unknown): number | null {
  if (typeof id !== 'string' || !SHAPE.test(id)) return null;
  const seq = Number(id.slice(PREFIX.length));
  return Number.isSafeInteger(seq) ? seq : null;
}
