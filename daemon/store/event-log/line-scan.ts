import type { IndexFields } from './index-fields.js';
import { Interner } from './interner.js';

/**
 * The start-up fast path: reads the index fields of a line the log wrote itself straight from
 * the bytes, without JSON.parse and without building the row (at 1 M events that is most of the
 * start time and most of the garbage). The log writes keys in a fixed order, so the frame is
 * checked byte by byte; anything unexpected (an escaped character, another key order, a foreign
 * line) returns false and the caller falls back to the full parse. The content is not parsed
 * here: a line whose content is damaged is found, skipped and reported when it is read.
 */
const bytes = (s: string) => Buffer.from(s, 'latin1');
const ID = bytes('{"id":"evt_');
const EVT = bytes('evt_');
const TYPE = bytes('","type":"');
const AGENT = bytes(',"agent_id":');
const SESSION = bytes(',"session_id":');
const QUEST = bytes(',"quest_id":');
const CAUSATION = bytes(',"causation_id":');
const CORRELATION = bytes(',"correlation_id":"');
const CREATED = bytes(',"created_at":"');
const SOURCE = bytes(',"source":"');
const ORIGIN = bytes(',"origin":{');
const CONTENT = bytes(',"content":');
const QUOTE = 34;
const NOT_AN_ID = -1;

export class LineScanner {
  // Keys repeat (a few types, agents, sessions): one string each instead of one per line.
  private readonly keys = new Interner();
  /** Set by `value`: the string read (or null), and the event id's sequence when it is one. */
  private str: string | null = null;
  private seq = NOT_AN_ID;

  scan(buf: Buffer, start: number, end: number, out: IndexFields): boolean {
    let p = expect(buf, start, end, ID);
    if (p < 0 || p + 16 > end) return false;
    out.seq = digits(buf, p, 16);
    if (Number.isNaN(out.seq)) return false;
    p = expect(buf, p + 16, end, TYPE);
    if (p < 0 || (p = this.keys.read(buf, p, end)) < 0) return false;
    out.type = this.keys.last;
    if ((p = this.value(buf, expect(buf, p + 1, end, AGENT), end, true)) < 0) return false;
    out.agent_id = this.str;
    if ((p = this.value(buf, expect(buf, p + 1, end, SESSION), end, true)) < 0) return false;
    out.session_id = this.str;
    if ((p = this.value(buf, expect(buf, p + 1, end, QUEST), end, true)) < 0) return false;
    out.quest_id = this.str;
    if ((p = this.value(buf, expect(buf, p + 1, end, CAUSATION), end, false)) < 0) return false;
    out.causation_id = this.str;
    out.causationSeq = this.seq;
    if ((p = this.value(buf, expect(buf, p + 1, end, CORRELATION) - 1, end, false)) < 0 || this.str === null)
      return false;
    out.correlation_id = this.str;
    out.correlationSeq = this.seq;
    p = expect(buf, p + 1, end, CREATED);
    if (p < 0 || p + 25 > end || buf[p + 24] !== QUOTE) return false;
    out.createdMs = parseIsoMillis(buf, p);
    if (Number.isNaN(out.createdMs)) return false;
    p = p + 25;
    // `source` is not indexed: skip its short word when the line has one (lines of older releases do not).
    const s = expect(buf, p, end, SOURCE);
    if (s >= 0) {
      const close = buf.indexOf(QUOTE, s);
      if (close < 0 || close >= end) return false;
      p = close + 1;
    }
    // `origin` (events a call set off) is not indexed either. Its values are JSON strings, in which
    // an unescaped `,"content":` cannot occur, so the first one after it is the content's key.
    if (expect(buf, p, end, ORIGIN) >= 0) {
      const content = buf.indexOf(CONTENT, p);
      if (content < 0 || content >= end) return false;
      p = content;
    }
    p = expect(buf, p, end, CONTENT);
    return p >= 0 && p < end - 1 && buf[end - 1] === 125 /* } */;
  }

  /** `null` or a string at `p`; returns the index of its last byte, or -1. */
  private value(buf: Buffer, p: number, end: number, intern: boolean): number {
    this.seq = NOT_AN_ID;
    if (p < 0) return -1;
    if (buf[p] === 110 /* n */ && buf[p + 1] === 117 && buf[p + 2] === 108 && buf[p + 3] === 108) {
      this.str = null;
      return p + 3;
    }
    if (buf[p] !== QUOTE) return -1;
    // An id-shaped reference (causation, correlation) is resolved by number; its string is only
    // made later if the index needs it (IndexFields: '' with a sequence means "that id").
    if (!intern && buf[p + 21] === QUOTE && expect(buf, p + 1, end, EVT) > 0) {
      this.seq = digits(buf, p + 5, 16);
      if (!Number.isNaN(this.seq)) {
        this.str = '';
        return p + 21;
      }
      this.seq = NOT_AN_ID;
    }
    const e = this.keys.read(buf, p + 1, end, !intern);
    if (e < 0) return -1;
    this.str = this.keys.last;
    return e;
  }
}

/** Where `key` ends if it starts at `p`, else -1. */
function expect(buf: Buffer, p: number, end: number, key: Buffer): number {
  if (p < 0 || p + key.length > end) return -1;
  for (let i = 0; i < key.length; i++) if (buf[p + i] !== key[i]) return -1;
  return p + key.length;
}

function digits(buf: Buffer, from: number, len: number): number {
  let v = 0;
  for (let i = from; i < from + len; i++) {
    const d = buf[i]! - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return v;
}

/** `YYYY-MM-DDTHH:MM:SS.mmmZ` (what toISOString writes) without Date.parse; NaN for any other shape. */
function parseIsoMillis(buf: Buffer, p: number): number {
  if (
    buf[p + 4] !== 45 ||
    buf[p + 7] !== 45 ||
    buf[p + 10] !== 84 ||
    buf[p + 13] !== 58 ||
    buf[p + 16] !== 58 ||
    buf[p + 19] !== 46 ||
    buf[p + 23] !== 90
  )
    return NaN;
  return Date.UTC(
    digits(buf, p, 4),
    digits(buf, p + 5, 2) - 1,
    digits(buf, p + 8, 2),
    digits(buf, p + 11, 2),
    digits(buf, p + 14, 2),
    digits(buf, p + 17, 2),
    digits(buf, p + 20, 3),
  );
}
