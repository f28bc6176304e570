import type { Clock } from '../../daemon/clock.js';

/** A clock that moves only when the test says so. */
export class FakeClock implements Clock {
  constructor(private ms = Date.parse('2026-01-15T12:00:00Z')) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
  set(iso: string | number): void {
    this.ms = typeof iso === 'number' ? iso : Date.parse(iso);
  }
}
