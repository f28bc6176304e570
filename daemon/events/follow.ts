import type { Context } from 'koa';
import type { EventsService } from '../runtime/services.js';

/** The longest a long-poll holds a request open; clients reconnect with their cursor after it. */
export const MAX_WAIT_SECONDS = 60;

/**
 * Long-poll: resolves as soon as `probe` finds something (re-checked on every new event), when
 * `seconds` pass, or when the client goes away. `probe` is the same query the route answers with,
 * so what wakes the request is exactly what it returns.
 */
export function waitForEvents<T>(ctx: Context, events: EventsService, seconds: number, probe: () => T | null): Promise<T | null> {
  const now = probe();
  if (now !== null || seconds <= 0) return Promise.resolve(now);
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: T | null) => {
      if (done) return;
      done = true;
      unsubscribe();
      unrelease();
      clearTimeout(timer);
      ctx.res.off('close', onClose);
      resolve(value);
    };
    const unsubscribe = events.subscribe(() => {
      const found = probe();
      if (found !== null) finish(found);
    });
    // A daemon shutting down answers its long-polls at once (with what there is) instead of holding them.
    const unrelease = events.onRelease?.(() => finish(probe())) ?? (() => {});
    const timer = setTimeout(() => finish(null), seconds * 1000);
    timer.unref?.();
    const onClose = () => finish(null);
    ctx.res.on('close', onClose);
  });
}
