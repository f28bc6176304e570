import type {
  AuditEntry,
  AuditPage,
  AuditQuery,
  AuditStore,
  AuditVerification,
  NewAuditEntry,
} from '../audit-types.js';
import { CHECKPOINT_ACTION, operatorEntry, positionOf, sealLine, verifyEntries } from './chain.js';
import { pageOf } from './query.js';

/** Where entries go once sealed: nowhere (memory), or a group-committed file (file-audit.ts). */
export interface AuditPersistence {
  /** Resolves once the entry is durable; `onDurable` has made it visible by then. `line` is the entry as stored. */
  write(entry: AuditEntry, line: string): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
  /** Re-reads what is stored (never the memory, which cannot show an edit on disk). */
  verify(): Promise<AuditVerification>;
  /** The durable entries older than the cutoff that the storage can remove (whole files), and those files. */
  removable(beforeIso: string): { ids: string[]; segments: number[] };
  /** Removes the files `removable` named. */
  remove(segments: number[]): Promise<void>;
}

type Head = { seq: number; hash: string };

/**
 * The audit trail of one process that owns its storage (the memory backend, or a data folder under
 * the daemon's lock): entries sealed in append order, so each stream's chain is assigned without a
 * lock; visible once durable, in order, so a follower's cursor never skips one.
 */
export class AuditLog implements AuditStore {
  /** Durable entries, oldest first. */
  readonly entries: AuditEntry[] = [];
  private readonly durableHeads = new Map<string, Head>();
  /** Heads including sealed entries still on their way to disk: the next entry chains to these. */
  private assignedHeads = new Map<string, Head>();
  private position = 0;

  constructor(
    private readonly persist: AuditPersistence | null,
    loaded: AuditEntry[] = [],
  ) {
    for (const e of loaded) {
      this.markDurable(e);
      this.position = Math.max(this.position, positionOf(e.id) ?? 0);
    }
    this.assignedHeads = new Map(this.durableHeads);
  }

  /** Called by the persistence for each entry of a batch that reached the disk, in order. */
  markDurable(entry: AuditEntry): void {
    this.entries.push(entry);
    this.durableHeads.set(entry.stream, { seq: entry.seq, hash: entry.hash });
  }

  /** A batch failed (and everything queued behind it): later entries must chain to what is on disk. */
  forgetPending(): void {
    this.assignedHeads = new Map(this.durableHeads);
  }

  async append(input: NewAuditEntry): Promise<AuditEntry> {
    const { entry, line } = sealLine(input, ++this.position, this.assignedHeads.get(streamKey(input)));
    this.assignedHeads.set(entry.stream, { seq: entry.seq, hash: entry.hash });
    if (!this.persist) {
      this.markDurable(entry);
      return entry;
    }
    await this.persist.write(entry, line);
    return entry;
  }

  async query(q: AuditQuery): Promise<AuditPage> {
    return pageOf(this.entries, q);
  }

  async verify(): Promise<AuditVerification> {
    if (this.persist) {
      await this.persist.flush();
      return this.persist.verify();
    }
    return verifyEntries(this.entries.map((entry) => ({ entry, where: entry.id })));
  }

  async sweep(beforeIso: string, at: string): Promise<number> {
    const plan = this.persist?.removable(beforeIso) ?? {
      ids: this.entries.filter((e) => e.at < beforeIso).map((e) => e.id),
      segments: [],
    };
    const doomed = new Set(plan.ids);
    if (doomed.size === 0) return 0;
    // The checkpoints go first and durably: a crash before the removal leaves entries a
    // checkpoint already covers, which still verify; never removed entries nothing names.
    const last = new Map<string, { entry: AuditEntry; count: number }>();
    for (const e of this.entries) {
      if (!doomed.has(e.id)) continue;
      last.set(e.stream, { entry: e, count: (last.get(e.stream)?.count ?? 0) + 1 });
    }
    for (const [stream, { entry, count }] of last) {
      await this.append(
        operatorEntry({
          at,
          action: CHECKPOINT_ACTION,
          company_id: stream === 'account' ? null : stream,
          details: { removed: count, through_seq: entry.seq, through_hash: entry.hash, before: beforeIso },
        }),
      );
    }
    await this.persist?.remove(plan.segments);
    const kept = this.entries.filter((e) => !doomed.has(e.id));
    this.entries.length = 0;
    this.entries.push(...kept);
    return doomed.size;
  }

  flush(): Promise<void> {
    return this.persist?.flush() ?? Promise.resolve();
  }

  close(): Promise<void> {
    return this.persist?.close() ?? Promise.resolve();
  }
}

const streamKey = (e: NewAuditEntry) => e.company_id ?? 'account';

export function createMemoryAuditStore(): AuditStore {
  return new AuditLog(null);
}
