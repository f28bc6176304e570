import type { Router } from '@koa/router';
import { ErrorCode } from '../../shared/errors.js';
import { devClockBody } from '../../shared/schemas/dev.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { ApiError } from '../http/api-error.js';
import { validate } from '../http/validate.js';
import { clockMoveRefusal, saveClockOffset } from './dev-clock.js';

/**
 * `GET /api/dev/clock` and `POST /api/dev/clock { advance_ms | set }` (`svc dev clock`): moves the
 * daemon's clock ahead, then lets every Company's scheduler and retry walker catch up at once, so
 * the answer already holds what the skipped time fired.
 */
export function clockRoutes(router: Router, deps: Deps): void {
  const view = () => {
    const now = deps.clock.now();
    const refusal = deps.devClock
      ? null
      : (clockMoveRefusal(deps.config) ?? 'this daemon was started without a movable clock');
    return {
      movable: refusal === null,
      ...(refusal ? { reason: refusal } : {}),
      offset_ms: deps.devClock?.offset() ?? 0,
      now: isoAt(now),
      real_now: isoAt(now - (deps.devClock?.offset() ?? 0)),
    };
  };

  router.get('/api/dev/clock', (ctx) => void (ctx.body = view()));

  router.post('/api/dev/clock', async (ctx) => {
    const body = validate(devClockBody, ctx.request.body);
    const clock = deps.devClock;
    if (!clock) throw new ApiError(403, ErrorCode.clockNotMovable, `The clock cannot move here: ${view().reason}.`);
    if ((body.advance_ms === undefined) === (body.set === undefined))
      throw new ApiError(400, ErrorCode.validationFailed, 'Give exactly one of advance_ms and set.');
    const now = clock.now();
    let by = body.advance_ms ?? 0;
    if (body.set !== undefined) {
      const target = Date.parse(body.set);
      if (Number.isNaN(target))
        throw new ApiError(
          400,
          ErrorCode.validationFailed,
          `set must be a time such as 2026-12-01T09:00:00Z, not '${body.set}'.`,
        );
      if (target < now)
        throw new ApiError(
          400,
          ErrorCode.clockBackwards,
          `The clock only moves forward: ${body.set} is before the daemon's now, ${isoAt(now)}.`,
        );
      by = target - now;
    }
    clock.moveAhead(by);
    saveClockOffset(deps.config.dataDir, clock.offset());
    deps.log.info('clock moved ahead', { by_ms: by, offset_ms: clock.offset() });
    const fired = (await deps.runtimes.catchUp?.()) ?? 0;
    ctx.body = { ok: true, moved_ms: by, ...view(), schedule_ticks_fired: fired };
  });
}
