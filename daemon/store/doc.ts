import { Low, Memory, type Adapter } from 'lowdb';
import { DurableJsonFile } from './json-file/durable-file-adapter.js';

/**
 * One JSON document behind lowdb, with the single write primitive every domain store uses:
 * `update(fn)` runs `fn` on the live data synchronously — so a check-and-set inside it is atomic
 * with respect to every other request — and resolves only once that state is on disk.
 *
 * Writes are group-committed: while one write is in flight, every update that lands meanwhile is
 * carried by the next single write, so N concurrent updates cost at most two file writes and no
 * update is lost (each write serialises the latest in-memory state).
 */
export class Doc<T extends object> {
  private inFlight: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  private constructor(private readonly low: Low<T>) {}

  static async open<T extends object>(adapter: Adapter<T>, defaults: T): Promise<Doc<T>> {
    const low = new Low<T>(adapter, defaults);
    await low.read();
    // Fill in collections added by newer versions to a file written by an older one.
    low.data = { ...structuredClone(defaults), ...low.data };
    return new Doc(low);
  }

  static file<T extends object>(path: string, defaults: T): Promise<Doc<T>> {
    return Doc.open(new DurableJsonFile<T>(path), defaults);
  }

  static memory<T extends object>(defaults: T): Promise<Doc<T>> {
    return Doc.open(new Memory<T>(), structuredClone(defaults));
  }

  /** The live data, for reads. Never mutate it outside `update`. */
  get data(): T {
    return this.low.data;
  }

  async update<R>(fn: (data: T) => R): Promise<R> {
    const result = fn(this.low.data);
    await this.flush();
    return result;
  }

  /** Resolves once everything changed so far is on disk. */
  flush(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.inFlight) return this.startWrite();
    const after = this.inFlight.catch(() => {});
    this.queued = after.then(() => {
      this.queued = null;
      return this.startWrite();
    });
    return this.queued;
  }

  private startWrite(): Promise<void> {
    const write = this.low.write().finally(() => {
      if (this.inFlight === write) this.inFlight = null;
    });
    this.inFlight = write;
    return write;
  }
}
