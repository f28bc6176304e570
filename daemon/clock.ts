/** Time as the daemon sees it. Tests pass a fake one (tests/helpers/fake-clock.ts) instead of sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const isoAt = (ms: number): string => new Date(ms).toISOString();
