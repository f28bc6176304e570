import { Router } from '@koa/router';
import { ErrorCode } from '../../../shared/errors.js';
import type { Deps } from '../../deps.js';
import { ApiError, badRequest, conflict } from '../../http/api-error.js';
import { requireUser, userOf } from '../user-guard.js';
import { validate } from '../../http/validate.js';
import { createFactorLimits } from '../factor-limits.js';
import { assertRecentLogin } from '../recent-login.js';
import { beginTotpEnrolment, confirmTotpEnrolment, disableTotp, regenerateRecoveryCodes } from './enrolment.js';
import { finishPartialLogin } from './partial-login.js';
import { totpOf } from './totp-codes.js';
import {
  totpConfirmBody as confirmBody,
  totpDisableBody as disableBody,
  totpLoginBody as loginBody,
} from '../../../shared/schemas/auth-factors.js';

const wrongCode = () =>
  new ApiError(
    401,
    ErrorCode.totpInvalidCode,
    'The code is not right, or was used already. Enter the current code from your app.',
  );

/** TOTP: the second step of a login, and enrolment (begin → confirm with a first code → recovery codes). */
export function totpRoutes(deps: Deps): Router {
  const router = new Router({ prefix: '/api/auth/totp' });
  const limits = createFactorLimits(deps, 'totp');
  const signedIn = requireUser(deps);

  router.post('/login', async (ctx) => {
    await limits.throttle(ctx);
    const body = validate(loginBody, ctx.request.body);
    const result = await finishPartialLogin(deps, ctx, body.partial_token, body.code, limits);
    if (result.ok) {
      ctx.body = { ok: true, token: result.token };
      return;
    }
    if (result.reason === 'wrong_code') throw wrongCode();
    throw new ApiError(
      401,
      ErrorCode.partialTokenInvalid,
      'The two-factor login has expired, was used, or ran out of tries. Log in again.',
    );
  });

  router.get('/', signedIn, (ctx) => {
    const totp = totpOf(userOf(ctx).user);
    ctx.body = {
      enabled: Boolean(totp?.enabled_at),
      enabled_at: totp?.enabled_at ?? null,
      recovery_codes_left: totp?.enabled_at ? totp.recovery.filter((r) => !r.used_at).length : 0,
    };
  });

  router.post('/enroll', signedIn, async (ctx) => {
    const { user, session } = userOf(ctx);
    assertRecentLogin(deps, session, 'Turning on two-factor authentication');
    const result = await beginTotpEnrolment(
      deps,
      user.id,
      user.email ?? (user.wallet_address as string | undefined) ?? user.id,
    );
    if (!result.ok)
      throw conflict(
        'Two-factor authentication is on already. Disable it first to enrol a new app.',
        ErrorCode.totpAlreadyEnabled,
      );
    ctx.body = result;
  });

  router.post('/enroll/confirm', signedIn, async (ctx) => {
    const { user } = userOf(ctx);
    const body = validate(confirmBody, ctx.request.body);
    const result = await confirmTotpEnrolment(deps, user.id, body.code);
    if (result.ok) {
      ctx.body = { ok: true, enabled: true, recovery_codes: result.recovery_codes };
      return;
    }
    if (result.reason === 'wrong_code') throw wrongCode();
    throw badRequest(
      'No enrolment is waiting (or it expired): start with POST /api/auth/totp/enroll.',
      ErrorCode.totpNotPending,
    );
  });

  router.post('/disable', signedIn, async (ctx) => {
    const { user } = userOf(ctx);
    const body = validate(disableBody, ctx.request.body);
    if (!totpOf(user)?.enabled_at) throw badRequest('Two-factor authentication is not on.', ErrorCode.totpNotEnabled);
    // One attempt under the ceiling: a burst of guesses cannot slip past it.
    const result = await limits.attempt(
      `totp:${user.id}`,
      () => disableTotp(deps, user.id, body),
      (r) => r === 'disabled',
    );
    if (result === 'not_enabled') throw badRequest('Two-factor authentication is not on.', ErrorCode.totpNotEnabled);
    if (result === 'refused') throw new ApiError(401, ErrorCode.totpInvalidCode, 'The code or password is not right.');
    ctx.body = { ok: true, enabled: false };
  });

  router.post('/recovery-codes', signedIn, async (ctx) => {
    const { user } = userOf(ctx);
    const body = validate(confirmBody, ctx.request.body);
    if (!totpOf(user)?.enabled_at) throw badRequest('Two-factor authentication is not on.', ErrorCode.totpNotEnabled);
    const codes = await limits.attempt(
      `totp:${user.id}`,
      () => regenerateRecoveryCodes(deps, user.id, body.code),
      Boolean,
    );
    if (!codes) throw wrongCode();
    ctx.body = { ok: true, recovery_codes: codes };
  });

  return router;
}
