/**
 * The record engine under the storage seam's embedded backends: named tables of JSON records,
 * each with an id and secondary indexes, held in memory, changed only through one atomic `write`.
 *
 * The domain stores (users, sessions, keys, agents, …) are written once over this engine; a backend
 * only decides what makes a write durable. `memory-space.ts` keeps nothing; the journal backend
 * (`../journal/`) appends one JSON line per write, group-committed with fsync, and folds the journal
 * into snapshots. PostgreSQL implements the domain interfaces directly and does not use this engine.
 */

export type IndexKey = string | readonly string[] | null | undefined;

export interface TableSpec<T extends object> {
  /** The table's name on disk: stable across releases, unique within a space. */
  name: string;
  /** The record's primary key. */
  id: (record: T) => string;
  /**
   * Secondary indexes: name → the key (or keys) a record is found under; null/undefined/[] leaves
   * the record out of that index. Keys are compared exactly: normalise (lower-case, …) in the key function.
   */
  indexes?: Record<string, (record: T) => IndexKey>;
  /**
   * Bump it when what a key function computes changes without its own source changing (a helper it
   * calls, a constant): snapshots store each record's keys and trust them while the id and key
   * functions' source and this number are what wrote them (`engine/record-text.ts`).
   */
  version?: number;
}

/**
 * Where records loaded unparsed are read from (the snapshot file a journal space opened): a table
 * holds such a record as its line's position (a number) until it is first used.
 */
export interface StoredLines {
  /** The stored line at `position` (`{"table":…,"id":…,"keys":[…],"record":{…}}`). */
  line(position: number): string;
  /** The keys written on that line, in the order of the table's indexes (handed over once). */
  takeKeys(position: number): IndexKey[];
}

/** A table's reads: synchronous, from memory. Records are frozen: change one by putting a new object. */
export interface Table<T extends object> {
  readonly name: string;
  readonly size: number;
  get(id: string): T | undefined;
  /** The records filed under `key` in `index`, in the order they were first put. */
  lookup(index: string, key: string): T[];
  /** The first of `lookup(index, key)`, without building the array. */
  first(index: string, key: string): T | undefined;
  /** How many records `lookup(index, key)` would return. */
  count(index: string, key: string): number;
  /** Every record, in the order they were first put. */
  all(): IterableIterator<T>;
}

/** The changes of one write. Reads inside the write see the state before it (buffered until `fn` returns). */
export interface Tx {
  put<T extends object>(table: Table<T>, record: T): void;
  remove<T extends object>(table: Table<T>, id: string): void;
}

export interface Space {
  /** Declares a table (idempotent for the same name). Records read from disk before this are indexed now. */
  define<T extends object>(spec: TableSpec<T>): Table<T>;
  /**
   * Runs `fn` synchronously against the current state, so a check-and-set inside it is atomic with
   * respect to every other request. If `fn` throws, nothing changes. Otherwise its puts and removes
   * are applied to memory at once and the promise resolves with `fn`'s result once they are durable
   * (one journal entry for the whole write: all of it survives a crash, or none of it).
   */
  write<R>(fn: (tx: Tx) => R): Promise<R>;
  /** Resolves once every write so far is durable. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
