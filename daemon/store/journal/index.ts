import { mkdirSync, openSync, readFileSync, writeSync, fsyncSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { MemorySpace, type Change } from '../engine/memory-space.js';
import type { Space } from '../engine/types.js';

export interface JournalOptions {
  /** The journal's file name stem inside `dir` (default `journal`). */
  name?: string;
}

export interface JournalSpace extends Space {
  /** Problems met while opening (a torn tail cut), for the daemon log. */
  readonly recovery: string[];
}

/**
 * FIRST STEP of the JSON Lines journal backend: one line per write, appended and fsynced before the
 * write resolves; replayed whole at open. Group commit, snapshots and compaction come next
 * (docs/storage.md). The signature of `openJournalSpace` is the seam the stores rely on.
 */
export async function openJournalSpace(dir: string, options: JournalOptions = {}): Promise<JournalSpace> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${options.name ?? 'journal'}.jsonl`);
  const space = new SimpleJournalSpace(file);
  space.replay();
  return space;
}

class SimpleJournalSpace extends MemorySpace implements JournalSpace {
  readonly recovery: string[] = [];
  private fd: number | null = null;
  /** Records read from disk for tables not defined yet. */
  private pending = new Map<string, Map<string, object>>();

  constructor(private readonly file: string) {
    super();
  }

  replay(): void {
    let text = '';
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      let changes: Change[];
      try {
        changes = JSON.parse(line) as Change[];
      } catch {
        this.recovery.push(`${this.file}: a torn last line was skipped`);
        continue;
      }
      for (const c of changes) {
        let rows = this.pending.get(c.table);
        if (!rows) this.pending.set(c.table, (rows = new Map()));
        if (c.op === 'put') rows.set((c as { id?: string }).id ?? '', c.record);
        else rows.delete(c.id);
      }
    }
    this.fd = openSync(this.file, 'a', 0o600);
  }

  override define<T extends object>(spec: import('../engine/types.js').TableSpec<T>) {
    const table = super.define(spec);
    const rows = this.pending.get(spec.name);
    if (rows) {
      this.pending.delete(spec.name);
      const state = this.tables.get(spec.name)!;
      for (const r of rows.values()) state.put(r);
    }
    return table;
  }

  protected override persist(changes: Change[]): Promise<void> {
    // Records carry their id under the table's key function; store it beside them for replay.
    const line = JSON.stringify(changes.map((c) => (c.op === 'put' ? { ...c, id: this.tables.get(c.table)!.spec.id(c.record) } : c))) + '\n';
    writeSync(this.fd!, line);
    fsyncSync(this.fd!);
    return Promise.resolve();
  }

  override close(): Promise<void> {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    return Promise.resolve();
  }
}
