import { Router } from '@koa/router';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { ErrorCode } from '../../../shared/errors.js';
import type { Deps } from '../../deps.js';
import { ApiError, conflict, notFound } from '../../http/api-error.js';
import { requireUser, userOf } from '../user-guard.js';
import { validate } from '../../http/validate.js';
import { createFactorLimits } from '../factor-limits.js';
import { assertRecentLogin } from '../recent-login.js';
import { issueSession } from '../session-issuer.js';
import { beginLogin, beginRegistration, finishLogin, finishRegistration, type Failure } from './ceremonies.js';
import {
  passkeyLoginFinishBody as loginFinish,
  passkeyRegisterBeginBody as registerBegin,
  passkeyRegisterFinishBody as registerFinish,
} from '../../../shared/schemas/auth-factors.js';

const view = (p: {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  transports: string[];
}) => ({
  id: p.id,
  name: p.name,
  created_at: p.created_at,
  last_used_at: p.last_used_at,
  transports: p.transports,
});

/** Passkeys (WebAuthn): add one to a signed-in account; log in with one (discoverable); list and delete. */
export function passkeyRoutes(deps: Deps): Router {
  const router = new Router({ prefix: '/api/auth' });
  const limits = createFactorLimits(deps, 'passkey');
  const signedIn = requireUser(deps);

  router.post('/passkey/register-begin', signedIn, async (ctx) => {
    const { name } = validate(registerBegin, ctx.request.body);
    const { user, session } = userOf(ctx);
    // A passkey survives session revocation and password resets: a stolen session must not plant one.
    assertRecentLogin(deps, session, 'Adding a passkey');
    ctx.body = await beginRegistration(deps, user, name ?? 'passkey');
  });

  router.post('/passkey/register-finish', signedIn, async (ctx) => {
    const body = validate(registerFinish, ctx.request.body);
    const result = await finishRegistration(
      deps,
      userOf(ctx).user,
      body.response as unknown as RegistrationResponseJSON,
      body.name,
    );
    if (!result.ok) throw failure(result);
    ctx.status = 201;
    ctx.body = { ok: true, passkey: view(result.passkey) };
  });

  router.post('/passkey/login-begin', async (ctx) => {
    await limits.throttle(ctx);
    ctx.body = await beginLogin(deps);
  });

  router.post('/passkey/login-finish', async (ctx) => {
    await limits.throttle(ctx);
    const body = validate(loginFinish, ctx.request.body);
    const result = await finishLogin(deps, body.response as unknown as AuthenticationResponseJSON);
    if (!result.ok) throw failure(result);
    // A passkey is possession plus (usually) a biometric or PIN: a second factor on its own, so no TOTP step.
    const { token } = await issueSession(deps, { user: result.user, kind: 'full', method: ['passkey'], ctx });
    ctx.body = { ok: true, token };
  });

  router.get('/passkeys', signedIn, async (ctx) => {
    ctx.body = { passkeys: (await deps.stores.passkeys.listByUser(userOf(ctx).user.id)).map(view) };
  });

  router.delete('/passkeys/:id', signedIn, async (ctx) => {
    if (!(await deps.stores.passkeys.remove(ctx.params.id!, userOf(ctx).user.id)))
      throw notFound('You have no passkey with this id.', ErrorCode.passkeyNotFound);
    ctx.body = { ok: true };
  });

  return router;
}

function failure(f: Failure): ApiError {
  if (f.reason === 'taken') return conflict(f.detail, ErrorCode.passkeyTaken);
  return new ApiError(
    401,
    f.reason === 'challenge' ? ErrorCode.passkeyChallengeInvalid : ErrorCode.passkeyVerificationFailed,
    f.detail,
  );
}
