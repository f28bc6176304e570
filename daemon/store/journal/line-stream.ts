import { closeSync, openSync, readSync } from 'node:fs';

/** How much of the file is held at once. */
const PIECE_BYTES = 1024 * 1024;

/**
 * Calls `visit` with each line of a file as bytes — `buf[start, end)`, newline excluded, a last
 * line without one included — and the line's offset in the file, reading a piece at a time. A
 * snapshot of 100,000 users is ~70 MB: read whole as one string and split, the text, its 200,000
 * line strings and the parsed records were all alive at once, and that peak (not what stays) set
 * the daemon's resident memory. `buf` is reused: copy what must outlive the call. Returns false
 * when the file does not exist.
 */
export function forEachLineIn(
  path: string,
  visit: (buf: Buffer, start: number, end: number, offset: number) => void,
): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  try {
    let buf: Buffer = Buffer.allocUnsafe(PIECE_BYTES);
    let held = 0; // bytes of an unfinished line carried over from the previous piece
    let base = 0; // the file offset of buf[0]
    for (;;) {
      if (held === buf.length) buf = grow(buf); // a line longer than the buffer
      const read = readSync(fd, buf, held, buf.length - held, null);
      const end = held + read;
      let start = 0;
      for (let nl = buf.indexOf(10, held); nl !== -1 && nl < end; nl = buf.indexOf(10, nl + 1)) {
        visit(buf, start, nl, base + start);
        start = nl + 1;
      }
      if (read === 0) {
        if (start < end) visit(buf, start, end, base + start);
        return true;
      }
      buf.copy(buf, 0, start, end);
      held = end - start;
      base += start;
    }
  } finally {
    closeSync(fd);
  }
}

/** `forEachLineIn` with each line decoded (UTF-8). Splitting at the newline byte never cuts a character. */
export function forEachLine(path: string, visit: (line: string) => void): boolean {
  return forEachLineIn(path, (buf, start, end) => visit(buf.toString('utf8', start, end)));
}

function grow(buf: Buffer): Buffer {
  const bigger = Buffer.allocUnsafe(buf.length * 2);
  buf.copy(bigger);
  return bigger;
}
