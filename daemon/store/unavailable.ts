/** Socket errors of a database that is down, restarting or out of reach. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * Whether `err` means the database cannot serve right now (down, restarting, refusing connections,
 * a dropped connection), as opposed to a statement that failed: the daemon then answers 503 with
 * Retry-After rather than 500, and the next request tries again on a fresh connection.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  // SQLSTATE class 08 (connection exception), 57P01-57P03 (shut down, cannot connect now), and any
  // FATAL from the server (e.g. a database that does not accept connections).
  if (/^08/.test(code) || /^57P0[1-3]$/.test(code) || e.severity === 'FATAL' || e.severity === 'PANIC') return true;
  if (SOCKET_CODES.has(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /^Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
    message,
  );
}

/**
 * SQLSTATEs of a statement the database gave up on because of another transaction, not because of
 * what it asked: a deadlock (40P01), a serialization failure (40001), a lock it could not take
 * (55P03). The transaction rolled back, so nothing of the request was stored, and the same request
 * sent again can pass.
 */
const TRANSIENT_CONFLICTS = new Set(['40P01', '40001', '55P03']);

export function isTransientConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT_CONFLICTS.has(code);
}
