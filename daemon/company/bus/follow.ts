import type { Context } from 'koa';
import type { EventsService } from '../company-services.js';

/** The longest a long-poll holds a request open; clients reconnect with their cursor after it. */
export const MAX_WAIT_SECONDS = 60;

/**
 * Long-poll: resolves as soon as `probe` finds something (re-checked on every new event), when
 * `seconds` pass, or when the client goes away. `probe` is the same query the route answers with,
 * so what wakes the request is exactly what it returns.
 */
export function waitForEvents<T>(
  ctx: Context,
  events: EventsService,
  seconds: number,
  probe: () => Promise<T | null>,
): Promise<T | null> {
  return new Promise((resolve, reject) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (value: T | null) => {
      if (done) return;
      done = true;
      unsubscribe();
      unrelease();
      clearTimeout(timer);
      ctx.res.off('close', onClose);
      resolve(value);
    };
    // Probes run one at a time; events that land during one are covered by one more probe after it.
    let probing = false;
    let again = false;
    /** Set when the answer is due now (no wait asked, or a shutdown): the next probe's result is it. */
    let final = seconds <= 0;
    const check = async () => {
      if (probing) return void (again = true);
      probing = true;
      try {
        do {
          again = false;
          const found = await probe();
          if (found !== null || final) return finish(found);
        } while ((again || final) && !done);
      } catch (err) {
        if (!done) (done = true), unsubscribe(), unrelease(), clearTimeout(timer), reject(err);
      } finally {
        probing = false;
      }
    };
    // Subscribed before the first probe: an event appended while it runs is not missed.
    const unsubscribe = events.subscribe(() => void check());
    // A daemon shutting down answers its long-polls at once (with what there is) instead of holding them.
    const unrelease = events.onRelease?.(() => ((final = true), void check())) ?? (() => {});
    const onClose = () => finish(null);
    ctx.res.on('close', onClose);
    void check().then(() => {
      if (done) return;
      timer = setTimeout(() => finish(null), seconds * 1000);
      timer.unref?.();
    });
  });
}
