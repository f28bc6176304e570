import { Router } from '@koa/router';
import type { Context } from 'koa';
import { ErrorCode } from '../../../shared/errors.js';
import type { Deps } from '../../deps.js';
import { ApiError, notFound, tooManyRequests } from '../../http/api-error.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import { requireUser, userOf } from '../user-guard.js';
import { validate } from '../../http/validate.js';
import { createFactorLimits } from '../factor-limits.js';
import { assertRecentLogin } from '../recent-login.js';
import {
  approvePairing,
  denyPairing,
  findPendingPairing,
  hashDeviceCode,
  presentPairing,
  startPairing,
} from './pairing.js';
import { pollPairing } from './pairing-poll.js';
import { createMemoryPairingStore, type PairingStore } from '../../store/pairing-store.js';
import {
  pairingCodeBody as codeBody,
  pairingPollBody as pollBody,
  pairingStartBody as startBody,
} from '../../../shared/schemas/auth-factors.js';

const GONE = 'This pairing is unknown, has expired or was used already. Run svc login --web again.';
const APPROVAL_ENDED =
  'The browser session that approved this pairing has ended (logged out, revoked, expired, or the password was changed or reset). Run svc login --web again and approve it from a current login.';

/**
 * `/api/auth/pairing/*` (docs/console.md): the CLI starts and polls without credentials; the
 * console looks a code up and approves or denies it with a full session.
 */
export function pairingRoutes(deps: Deps, store: PairingStore = deps.pairings ?? createMemoryPairingStore()): Router {
  const router = new Router({ prefix: '/api/auth/pairing' });
  const signedIn = requireUser(deps);
  // Starting is cheap for the caller and costs the daemon a record: 10 per 5 min per address.
  const perAddress = createRateLimiter(deps.stores.limits, deps.clock, 'pairing_start_address', [
    { limit: 10, windowMs: 5 * 60_000 },
  ]);
  // RFC 8628 "slow_down": one poll per second per pairing is plenty (the CLI polls every 2 s).
  const perDevice = createRateLimiter(deps.stores.limits, deps.clock, 'pairing_poll', [{ limit: 1, windowMs: 1000 }]);
  // Guessing codes needs an account, and each wrong code counts toward its lock-out (10 → 15 min).
  const guesses = createFactorLimits(deps, 'pairing');

  router.post('/start', async (ctx) => {
    const wait = await perAddress.hit(ctx.ip || 'unknown');
    if (wait !== null) throw tooManyRequests(wait, 'Too many pairings started from this address. Wait a few minutes.');
    const { client } = validate(startBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = await startPairing(deps, store, ctx, client ?? null);
  });

  router.post('/poll', async (ctx) => {
    const { device_code } = validate(pollBody, ctx.request.body);
    const wait = await perDevice.hit(hashDeviceCode(device_code));
    if (wait !== null) throw tooManyRequests(wait, 'Polling too fast: wait the interval the start answer gave.');
    const result = await pollPairing(deps, store, ctx, device_code);
    if (result.state === 'gone') throw notFound(GONE, ErrorCode.pairingNotFound);
    if (result.state === 'denied')
      throw new ApiError(403, ErrorCode.pairingDenied, 'The pairing was denied in the browser.');
    // Its own code, not "gone": the person approved, so they need to know why no session came.
    if (result.state === 'approval_ended') throw new ApiError(403, ErrorCode.pairingApprovalEnded, APPROVAL_ENDED);
    ctx.body =
      result.state === 'pending'
        ? { ok: true, status: 'pending', expires_at: result.expires_at }
        : { ok: true, status: 'approved', token: result.token, session_id: result.session_id };
  });

  const pending = async (ctx: Context) => {
    await guesses.throttle(ctx);
    const { user_code } = validate(codeBody, ctx.request.body);
    const record = await guesses.attempt(
      `pairing:${userOf(ctx).user.id}`,
      () => findPendingPairing(deps, store, user_code),
      (r) => r !== undefined,
    );
    if (!record) throw notFound(GONE, ErrorCode.pairingNotFound);
    return { record, user_code };
  };

  router.post('/lookup', signedIn, async (ctx) => {
    const { record, user_code } = await pending(ctx);
    ctx.body = { ok: true, pairing: presentPairing(record, user_code) };
  });

  router.post('/approve', signedIn, async (ctx) => {
    // Approving hands out a new session: a left-open or stolen one must not be enough for that.
    // Checked before the code, so a stale session spends no guesses either.
    assertRecentLogin(deps, userOf(ctx).session, 'Approving a terminal', ErrorCode.reauthRequired);
    const { record } = await pending(ctx);
    if (!(await approvePairing(deps, store, record, userOf(ctx)))) throw notFound(GONE, ErrorCode.pairingNotFound);
    ctx.body = { ok: true, status: 'approved' };
  });

  router.post('/deny', signedIn, async (ctx) => {
    const { record } = await pending(ctx);
    if (!(await denyPairing(deps, store, record))) throw notFound(GONE, ErrorCode.pairingNotFound);
    ctx.body = { ok: true, status: 'denied' };
  });

  return router;
}
