import { Router } from '@koa/router';
import { ErrorCode } from '../../../shared/errors.js';
import type { Deps } from '../../deps.js';
import { ApiError, tooManyRequests } from '../../http/api-error.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import { validate } from '../../http/validate.js';
import { normalizeEmail } from '../email-codes.js';
import { createFactorLimits } from '../factor-limits.js';
import { issueLoginCode, loginWithCode, loginWithLink } from './login-code.js';
import { sendAfterAnswer } from '../account-mail.js';
import {
  loginCodeBody as codeBody,
  loginCodeRequestBody as requestBody,
  loginLinkBody as linkBody,
} from '../../../shared/schemas/auth-factors.js';

const SENT = {
  ok: true,
  message:
    'If an account uses this address, a 6-digit code and a login link are on their way. Both work once, for 10 minutes.',
};

/** Passwordless login (spec §3.2): one e-mailed row, consumable by its code or by its magic link. */
export function loginCodeRoutes(deps: Deps): Router {
  const router = new Router();
  const limits = createFactorLimits(deps, 'login_code');
  // Same bucket shape as signup/resend (SECURITY.md): 1 per 60 s and 5 per hour per address, known or not.
  const perEmail = createRateLimiter(deps.stores.limits, deps.clock, 'login_code_email', [
    { limit: 1, windowMs: 60_000 },
    { limit: 5, windowMs: 3600_000 },
  ]);

  router.post('/api/auth/login/code/request', async (ctx) => {
    await limits.throttle(ctx);
    const { email } = validate(requestBody, ctx.request.body);
    const wait = await perEmail.hit(normalizeEmail(email));
    if (wait !== null)
      throw tooManyRequests(wait, 'A code was sent to this address moments ago. Wait before asking again.');
    const mail = await issueLoginCode(deps, email);
    if (mail) sendAfterAnswer(deps, ctx, 'login code', () => deps.mailer.send(mail));
    ctx.body = SENT;
  });

  router.post('/api/auth/login/code/consume', async (ctx) => {
    await limits.throttle(ctx);
    const body = validate(codeBody, ctx.request.body);
    const key = `login_code:${normalizeEmail(body.email)}`;
    const result = await limits.attempt(
      key,
      () => loginWithCode(deps, ctx, body.email, body.code),
      (r) => r.ok,
    );
    if (result.ok) {
      ctx.body = result.outcome;
      return;
    }
    const message =
      result.reason === 'burned'
        ? 'Too many wrong tries: this code no longer works. Ask for a new one.'
        : result.reason === 'wrong'
          ? 'The code is not right.'
          : 'The code is not right or has expired. Ask for a new one.';
    throw new ApiError(401, ErrorCode.loginCodeInvalid, message);
  });

  router.post('/api/auth/login/magic/consume', async (ctx) => {
    await limits.throttle(ctx);
    const { token } = validate(linkBody, ctx.request.body);
    const outcome = await loginWithLink(deps, ctx, token);
    if (!outcome)
      throw new ApiError(
        401,
        ErrorCode.magicLinkInvalid,
        'This login link was used already, has expired, or is not valid. Ask for a new code.',
      );
    ctx.body = outcome;
  });

  // GET /auth/magic (the link's page) is the web console's: daemon/console/routes.ts.

  return router;
}
