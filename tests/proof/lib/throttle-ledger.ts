/**
 * What one load client knows about a sliding-window limit it is subject to (per address, per key):
 * the calls the daemon counted. The daemon counts an allowed call and refuses (429) only while
 * `limit` counted calls lie in the last `windowMs`; a refused call is not counted. A call the
 * daemon counted was answered after the daemon counted it, so if a 429 is deserved, at least
 * `limit` counted answers arrived after `sent - windowMs`. A 429 with fewer is one the client did
 * not ask for: a throttle that bites too early, or a refusal from something else.
 */
export class ThrottleLedger {
  private counted: number[] = [];

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** An answer that was not a 429, at `ended` (performance.now()). */
  count(ended: number): void {
    this.counted.push(ended);
  }

  /** Whether a 429 for a call sent at `sent` is one this client asked for. A limit of 0 is off. */
  deserves429(sent: number): boolean {
    if (this.limit <= 0) return false;
    this.counted = this.counted.filter((t) => t > sent - this.windowMs);
    return this.counted.length >= this.limit;
  }
}
