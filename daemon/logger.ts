/** A tiny structured logger: one line per record, JSON fields after the message. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The daemon's logger also owns its buffer: `flush()` writes what is pending, synchronously. */
export interface FlushableLogger extends Logger {
  flush(): void;
}

export function createLogger(write: (line: string) => void = createBufferedSink().write): Logger {
  const stamp = createTimestamper();
  const emit = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    const rest = fields ? ' ' + stringifyFields(fields) : '';
    write(`${stamp()} ${level} ${message}${rest}`);
  };
  return { info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** The daemon's logger: lines are batched (see createBufferedSink) and flushed on stop and at exit. */
export function createDaemonLogger(out: LineOutput = process.stderr): FlushableLogger {
  const sink = createBufferedSink(out);
  return { ...createLogger(sink.write), flush: sink.flush };
}

export interface LineOutput {
  write(chunk: string): unknown;
}

export interface BufferedSink {
  write(line: string): void;
  /** Writes every pending line now. */
  flush(): void;
}

const live = new Set<BufferedSink>();
let exitHooked = false;

/**
 * Collects log lines and hands them to `out` in one write per turn of the event loop instead of
 * one per line: under load the access log costs one syscall per batch, not per request.
 * No line is lost: a batch over `maxBytes` is written at once, and every sink is flushed on
 * process exit (process.stderr writes to files, pipes and terminals synchronously on POSIX,
 * so lines written in the 'exit' handler do reach them).
 */
export function createBufferedSink(out: LineOutput = process.stderr, maxBytes = 64 * 1024): BufferedSink {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    if (!pending) return;
    const chunk = pending;
    pending = '';
    out.write(chunk);
  };
  const onTick = () => {
    scheduled = false;
    flush();
  };
  const sink: BufferedSink = {
    write(line) {
      pending += line + '\n';
      if (pending.length >= maxBytes) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(onTick);
      }
    },
    flush,
  };
  live.add(sink);
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () =>
      live.forEach((s) => {
        s.flush();
      }),
    );
  }
  return sink;
}

/** ISO timestamps, formatted once per millisecond rather than once per line. */
function createTimestamper(now: () => number = Date.now): () => string {
  let lastMs = -1;
  let lastIso = '';
  return () => {
    const ms = now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  };
}

/** A logger that keeps its lines, for tests. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(
    createLogger((l) => lines.push(l)),
    { lines },
  );
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/**
 * The fields as JSON, errors written with their name, message and stack. A replacer function takes
 * JSON.stringify off V8's fast path, so fields holding no object at all (the access log's id and
 * milliseconds, on every request) are written without one: the replacer would leave them as they are.
 */
function stringifyFields(fields: Record<string, unknown>): string {
  if (fields instanceof Error) return JSON.stringify(fields, replaceErrors);
  for (const name in fields) {
    const value = fields[name];
    if (typeof value === 'object' && value !== null) return JSON.stringify(fields, replaceErrors);
  }
  return JSON.stringify(fields);
}

function replaceErrors(_key: string, value: unknown) {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}
