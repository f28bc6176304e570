/**
 * Which journal entries are on disk: the highest durable `seq`, and the first entry of every failed
 * batch. A snapshot waits on it before going in place — it may have captured writes still in
 * flight — and is abandoned if one of those failed (memory no longer holds it either).
 */
export class Durability {
  private durable: number;
  private readonly failures: number[] = [];
  private waiters: { seq: number; since: number; resolve(ok: boolean): void }[] = [];

  constructor(lastSeq: number) {
    this.durable = lastSeq;
  }

  /** A mark to pass to `when`: failures before it do not concern what is captured after it. */
  mark(): number {
    return this.failures.length;
  }

  durableUpTo(seq: number): void {
    this.durable = seq;
    this.wake();
  }

  failedFrom(first: number): void {
    this.failures.push(first);
    this.wake();
  }

  /** True once every entry up to `seq` is durable; false if one of them failed after `mark`. */
  when(seq: number, mark: number): Promise<boolean> {
    const decided = this.decide(seq, mark);
    if (decided !== undefined) return Promise.resolve(decided);
    return new Promise((resolve) => this.waiters.push({ seq, since: mark, resolve }));
  }

  private decide(seq: number, mark: number): boolean | undefined {
    for (let i = mark; i < this.failures.length; i++) if (this.failures[i]! <= seq) return false;
    return seq <= this.durable ? true : undefined;
  }

  private wake(): void {
    this.waiters = this.waiters.filter((w) => {
      const ok = this.decide(w.seq, w.since);
      if (ok !== undefined) w.resolve(ok);
      return ok === undefined;
    });
  }
}
