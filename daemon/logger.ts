/** A tiny structured logger: one line per record, JSON fields after the message. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(write: (line: string) => void = (l) => process.stderr.write(l + '\n')): Logger {
  const emit = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    const rest = fields ? ' ' + JSON.stringify(fields, replaceErrors) : '';
    write(`${new Date().toISOString()} ${level} ${message}${rest}`);
  };
  return { info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** A logger that keeps its lines, for tests. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger((l) => lines.push(l)), { lines });
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

function replaceErrors(_key: string, value: unknown) {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}
