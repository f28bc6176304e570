/**
 * Reads a JSON string's bytes into a JS string, returning the same string object for bytes seen
 * before: at start every line names a type, an agent and a session out of a few hundred, and one
 * shared string each saves an allocation per line and makes the index's Map lookups cheaper.
 */
const QUOTE = 34;
const BACKSLASH = 92;
const MAX_INTERNED = 100_000;

export class Interner {
  private readonly seen = new Map<number, string>();
  /** The string read by the last successful `read`. */
  last = '';

  /** Reads the string starting at `p` (after its opening quote); returns its closing quote's index, or -1 (escapes go to the full parse). */
  read(buf: Buffer, p: number, end: number, fresh = false): number {
    let hash = 0x811c9dc5;
    let ascii = true;
    let i = p;
    for (; i < end; i++) {
      const c = buf[i]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH) return -1;
      if (c >= 0x80) ascii = false;
      hash = Math.imul(hash ^ c, 0x01000193);
    }
    if (i >= end) return -1;
    if (fresh || !ascii) {
      this.last = ascii ? buf.toString('latin1', p, i) : buf.toString('utf8', p, i);
      return i;
    }
    const known = this.seen.get(hash);
    if (known !== undefined && sameBytes(known, buf, p, i)) {
      this.last = known;
      return i;
    }
    this.last = buf.toString('latin1', p, i);
    if (known === undefined && this.seen.size < MAX_INTERNED) this.seen.set(hash, this.last);
    return i;
  }
}

function sameBytes(s: string, buf: Buffer, from: number, to: number): boolean {
  if (s.length !== to - from) return false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== buf[from + i]) return false;
  return true;
}
