import { Router } from '@koa/router';
import * as z from 'zod';
import { ErrorCode } from '../../../shared/errors.js';
import type { Deps } from '../../deps.js';
import { ApiError, badRequest, conflict } from '../../http/api-error.js';
import { issueSession } from '../session-issuer.js';
import { validate } from '../../http/validate.js';
import { isoAt } from '../../clock.js';
import { createFactorLimits } from '../factor-limits.js';
import { completeFirstFactor } from '../login-outcome.js';
import { createChallenge } from '../one-time.js';
import { assertRecentLogin } from '../recent-login.js';
import { requireUser, userOf } from '../user-guard.js';
import { checkSiweMessage, expectedSiweScope, type SiweCheck } from './siwe-check.js';
import { findWalletUser, signUpWallet } from './wallet-accounts.js';
import { loadWalletLibs } from './wallet-libs.js';
import {
  walletSignedBody as signedBody,
  walletSignupBody as signupBody,
} from '../../../shared/schemas/auth-factors.js';

// The address needs ethers' EIP-55 check, so it stays here (see shared/schemas/auth-factors.ts);
// ethers is loaded by the first wallet request, so the schema is built then.
const addressBody = async () => {
  const { isAddress } = await loadWalletLibs();
  addressSchema ??= z.object({
    address: z
      .string()
      .trim()
      .refine((a) => isAddress(a), 'must be a 0x-prefixed Ethereum address'),
  });
  return addressSchema;
};
let addressSchema: z.ZodType<{ address: string }> | undefined;

/** Sign-In with Ethereum: a nonce per address, then login or signup with the signed message. */
export function walletRoutes(deps: Deps): Router {
  const router = new Router({ prefix: '/api/auth/wallet' });
  const limits = createFactorLimits(deps, 'wallet');

  router.post('/nonce', async (ctx) => {
    await limits.throttle(ctx);
    const { address } = validate(await addressBody(), ctx.request.body);
    const ttlMs = deps.config.auth.factors.siweNonceTtlMs;
    // 128 random bits, hex: EIP-4361 wants an alphanumeric nonce of at least 8 characters.
    const nonce = deps.random.bytes(16).toString('hex');
    await createChallenge(deps, { kind: 'siwe_nonce', subject: address.toLowerCase(), ttlMs, secret: nonce });
    const { domain, origin } = expectedSiweScope(deps.config, ctx.get('Origin'));
    const now = deps.clock.now();
    ctx.body = {
      nonce,
      expires_at: isoAt(now + ttlMs),
      // What the message must say, so a client can build it without guessing.
      domain,
      uri: origin,
      version: '1',
      chain_ids: deps.config.auth.factors.siweChainIds,
      issued_at: isoAt(now),
    };
  });

  router.post('/login', async (ctx) => {
    await limits.throttle(ctx);
    const body = validate(signedBody, ctx.request.body);
    const address = refuseUnlessValid(await checkSiweMessage(deps, body.message, body.signature));
    const user = await findWalletUser(deps, address);
    if (!user)
      throw new ApiError(
        401,
        ErrorCode.walletNotRegistered,
        'No account uses this wallet. Sign up with an invite code (POST /api/auth/wallet/signup).',
      );
    ctx.body = await completeFirstFactor(deps, ctx, user, ['wallet']);
  });

  router.post('/signup', async (ctx) => {
    await limits.throttle(ctx);
    const body = validate(signupBody, ctx.request.body);
    const address = refuseUnlessValid(await checkSiweMessage(deps, body.message, body.signature));
    const result = await signUpWallet(deps, address, body.invite_code);
    if (!result.ok && result.reason === 'taken')
      throw conflict(
        'This wallet has an account already: log in with it (POST /api/auth/wallet/login).',
        ErrorCode.walletTaken,
      );
    if (!result.ok)
      throw badRequest('The invite code is not valid or was used already.', ErrorCode.walletInviteInvalid);
    const { token } = await issueSession(deps, { user: result.user, kind: 'full', method: ['wallet'], ctx });
    ctx.status = 201;
    ctx.body = { ok: true, token, user: { id: result.user.id, email: null, wallet_address: address } };
  });

  // Adds a wallet to a signed-in account (the console's security page). Like a passkey,
  // a wallet outlives every session, so a stolen session must not plant one: a recent login is needed.
  router.post('/link', requireUser(deps), async (ctx) => {
    await limits.throttle(ctx);
    const body = validate(signedBody, ctx.request.body);
    const { user, session } = userOf(ctx);
    assertRecentLogin(deps, session, 'Linking a wallet');
    if (user.wallet_address) throw conflict('This account has a wallet already.', ErrorCode.walletTaken);
    const address = refuseUnlessValid(await checkSiweMessage(deps, body.message, body.signature));
    if (!(await deps.stores.wallets.link(address, user.id, isoAt(deps.clock.now()))))
      throw conflict('This wallet belongs to an account already.', ErrorCode.walletTaken);
    await deps.stores.users.update(user.id, (u) => void (u.wallet_address = address));
    ctx.body = { ok: true, wallet_address: address };
  });

  return router;
}

function refuseUnlessValid(check: SiweCheck): string {
  if (check.ok) return check.address;
  if (check.reason === 'malformed') throw badRequest(check.detail, ErrorCode.siweMessageInvalid);
  if (check.reason === 'nonce') throw new ApiError(401, ErrorCode.siweNonceInvalid, check.detail);
  throw new ApiError(401, ErrorCode.siweMessageInvalid, check.detail);
}
