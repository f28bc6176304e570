import type { EventRow } from '../company-services.js';
import type { EventLog } from '../../store/event-log/types.js';

export interface LiveListenersDeps {
  log: Pick<EventLog, 'get'>;
  /** Team mode: hears other daemons' appends to this log (runtime-storage.ts); returns an unwatch. */
  watch?: (wake: (lastId: string) => void) => () => void;
}

/**
 * Who follows a Company's log as it grows (detectors, channels, SSE streams and long-polls): told of
 * each event once it is on disk, and released when the runtime closes.
 */
export function createLiveListeners(deps: LiveListenersDeps) {
  const listeners = new Set<(event: EventRow) => void>();
  let unwatch: (() => void) | undefined;
  const releasers = new Set<() => void>();
  let released = false;

  const tell = (row: EventRow) => {
    for (const listener of listeners) {
      try {
        listener(row);
      } catch {
        // A listener's failure is its own: the event is on disk and dispatch goes on.
      }
    }
  };
  const wake = (lastId: string) => {
    if (listeners.size === 0) return;
    // Listeners only use the event as a wake-up (they re-page from their cursor); the head row is
    // read so their signature stays the one local appends use.
    deps.log.get(lastId).then(
      (row) => row && tell(row),
      () => {},
    );
  };

  return {
    tell,
    wake,
    subscribe(listener: (event: EventRow) => void): () => void {
      listeners.add(listener);
      // Team mode: other daemons' appends are heard only while something here follows the log,
      // so a daemon nobody follows spends nothing on them (event-notifier.ts).
      if (listeners.size === 1) unwatch ??= deps.watch?.(wake);
      return () => {
        if (listeners.delete(listener) && listeners.size === 0) unwatch?.(), (unwatch = undefined);
      };
    },
    releaseWaiters() {
      released = true;
      for (const fn of [...releasers]) fn();
      releasers.clear();
    },
    onRelease(fn: () => void): () => void {
      if (released) {
        queueMicrotask(fn);
        return () => {};
      }
      releasers.add(fn);
      return () => void releasers.delete(fn);
    },
  };
}
