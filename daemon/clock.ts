/** Time as the daemon sees it. Tests pass a fake one (tests/helpers/fake-clock.ts) instead of sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Test hook for a daemon PROCESS (SVC_TEST_CLOCK_FILE, honoured only with SVC_ALLOW_TEST_SETTINGS=1:
 * daemon/test-settings.ts; in-process tests use the fake clock): the system time plus the
 * milliseconds written in `file` (missing or empty = 0), re-read on every call so a security suite
 * can step past a code's 10 minutes without waiting for them. Whoever can write the file moves
 * every expiry and throttle window, which is why nothing but a test may turn it on.
 */
export function offsetClock(file: string, read: (f: string) => string): Clock {
  return {
    now() {
      let offset = 0;
      try {
        offset = Number(read(file).trim() || 0) || 0;
      } catch {
        offset = 0;
      }
      return Date.now() + offset;
    },
  };
}

export const isoAt = (ms: number): string => new Date(ms).toISOString();

/**
 * `svc dev clock`: a clock some milliseconds ahead of `base`, for everything that reads time. The
 * offset only grows — a clock that went back would let spent codes and ended sessions live again.
 * Only a local daemon has one (daemon/dev/dev-clock.ts decides, and keeps the offset on disk).
 */
export interface MovableClock extends Clock {
  offset(): number;
  moveAhead(ms: number): void;
}

export function movableClock(base: Clock, offsetMs = 0): MovableClock {
  let offset = Math.max(0, offsetMs);
  return {
    now: () => base.now() + offset,
    offset: () => offset,
    moveAhead(ms) {
      if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
      offset += ms;
    },
  };
}
