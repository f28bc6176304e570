import { Transform } from 'node:stream';

/**
 * Drops whitespace-only lines from stdin before the SDK's stdio transport frames it: a trailing
 * empty line (an `echo`, a hand-typed Enter) is no message, and the transport would answer it with
 * a parse error. Every other byte passes through unchanged.
 */
export function skipBlankLines(): Transform {
  let rest = '';
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop()!;
      const kept = lines.filter((l) => l.trim() !== '');
      done(null, kept.length > 0 ? kept.join('\n') + '\n' : undefined);
    },
    flush(done) {
      done(null, rest.trim() === '' ? undefined : rest + '\n');
    },
  });
}
