import type { Clock } from '../../clock.js';

export interface SchedulerTimer {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Walk a little after the minute so a tick at :00 is surely due on the clock we read. */
const WALK_OFFSET_MS = 250;
const MINUTE = 60_000;

export const realTimer: SchedulerTimer = {
  // Unref'd: a pending walk must not keep a stopping daemon alive.
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * Runs `run` now, then just after every minute boundary, until stopped. A run is never started
 * while the previous one is in progress: the next is timed from when the last one finished.
 */
export function createMinuteLoop(options: {
  clock: Clock;
  timer: SchedulerTimer;
  run: () => Promise<unknown>;
  onError?: (err: unknown) => void;
}) {
  let handle: unknown = null;
  let running = false;
  const loop = (): void => {
    options
      .run()
      .catch((err) => options.onError?.(err))
      .finally(() => {
        if (!running) return;
        const now = options.clock.now();
        handle = options.timer.set(loop, MINUTE - (now % MINUTE) + WALK_OFFSET_MS);
      });
  };
  return {
    start(): void {
      if (running) return;
      running = true;
      loop();
    },
    stop(): void {
      running = false;
      if (handle !== null) options.timer.clear(handle);
      handle = null;
    },
  };
}
