import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * The connection pool of team mode. Every statement goes through `pool.query(text, values)` with
 * `$n` placeholders: values never become SQL text, so no input can change a statement's meaning.
 */
export interface Database {
  readonly pool: pg.Pool;
  /** The URL without its password, for messages and the log (the password is a credential). */
  readonly label: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Connections this daemon may hold (default 10; PostgreSQL's default limit is 100 for all daemons). */
  max?: number;
  /** Errors of idle connections (a restarted server, a dropped link): reported, never fatal. */
  onIdleError?: (err: Error) => void;
}

/**
 * Checks the URL's form before any connection, so a typo is a one-line message, not a stack.
 * (libpq URLs may leave the host empty, `postgres://u@/db?host=/run/postgresql`, which the WHATWG
 * URL parser refuses, so the scheme is all that is checked here; the driver reports the rest.)
 */
export function checkDatabaseUrl(url: string): void {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error(`invalid database URL ${redactDatabaseUrl(url)}: it must start with postgres:// or postgresql://`);
  }
}

/** `postgres://svc:***@db:5432/svc`: the URL as it may be shown (in the userinfo or as a parameter). */
export function redactDatabaseUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*):[^@/?#]*@/i, '$1:***@')
    .replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** Opens the pool and proves the server answers (so a wrong host fails at start, not on a request). */
export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  checkDatabaseUrl(url);
  const label = redactDatabaseUrl(url);
  // pg is loaded here, not at start: a daemon on JSON files never needs it (docs/performance.md).
  const { Pool } = (await import('pg')).default;
  const pool = new Pool({ connectionString: url, max: options.max ?? 10, application_name: 'svc' });
  // Without a listener an idle connection's error (server restart) would crash the process.
  pool.on('error', (err) => options.onIdleError?.(err));
  prepareEveryStatement(pool);
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => {});
    throw new Error(`cannot reach the database at ${label}: ${(err as Error).message}`);
  }
  let closing: Promise<void> | null = null;
  return { pool, label, close: () => (closing ??= pool.end()) };
}

/** Runs `work` inside BEGIN … COMMIT on one connection; any throw rolls back and is rethrown. */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection whose ROLLBACK failed is in an unknown state: it is destroyed, not reused.
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.release(broken);
  }
}

/** Distinct statement texts given a name; past this, texts run unnamed (a guard, never reached by svc's own). */
const MAX_NAMED = 2000;

/**
 * Every statement with values runs as a named (prepared) statement, on whichever path it takes:
 * `pool.query` and the `client.query` of a transaction (a rate-limit hit, a failure hold, an
 * account write). Each connection parses and plans a text once and then only binds values, which
 * takes most of the server's work off the one-row statements every request makes; a transaction's
 * statements used to run unnamed, so they were parsed and planned on every call. Names are a hash
 * of the text, so the same text has the same name on every connection. A text without values
 * (BEGIN, COMMIT, a migration's several statements) stays a simple query: a prepared statement
 * holds one command. A config object (`pool.query({ text, values })`) passes through unnamed: the
 * way to have a statement planned for its values on every call, where one plan cannot fit them
 * all (event pages from an instant, event-query.ts).
 */
function prepareEveryStatement(pool: pg.Pool): void {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name && names.size < MAX_NAMED) {
      name = `svc_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  // pool.query checks out a client and calls its query, so naming the clients' covers both paths.
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
      if (typeof text !== 'string' || !Array.isArray(values)) return query(text, values, callback);
      const name = nameOf(text);
      const config = name ? { name, text, values } : { text, values };
      // pool.query passes a callback; a transaction's awaits the promise.
      return callback === undefined ? query(config) : query(config, callback);
    }) as typeof client.query;
  });
}
