import { Router } from '@koa/router';
import type { Deps } from '../deps.js';
import { requireUser } from './user-guard.js';
import { meRoutes } from './me-routes.js';
import { updateAvatar } from './avatar.js';
import type { AuthLimits } from './limits.js';
import { loginWithPassword } from './login-password.js';
import { changePassword } from './password-change.js';
import { setWelcomeName, updateProfile } from './profile.js';
import { forgotPassword, resetPassword } from './recovery.js';
import { listSessions, logout, revokeOtherSessions, revokeSession } from './sessions-routes.js';
import { signup } from './signup.js';
import { renderResetPage } from './reset-page.js';
import { sendTokenPage } from '../http/html-page.js';
import { resendCode, verifyEmail } from './verify.js';

/**
 * The account routes: signup and verification, password login, recovery, profile and
 * sessions under /api/auth, and the caller's own account under /api/me. `limits` is the app's one
 * set of throttles (createApp makes it), so every route counts against the same buckets and the
 * same per-account ceiling.
 */
export function accountRouters(deps: Deps, limits: AuthLimits): Router[] {
  const router = new Router({ prefix: '/api/auth' });
  const fullUser = requireUser(deps);

  router.post('/signup', signup(deps, limits));
  router.post('/verify', verifyEmail(deps));
  router.post('/resend-code', resendCode(deps, limits));

  const login = loginWithPassword(deps, limits);
  router.post('/login', login);
  router.post('/login/email', login); // historical alias (spec §4.2): the same handler

  router.post('/forgot-password', forgotPassword(deps, limits));
  router.post('/reset-password', resetPassword(deps));
  router.post('/change-password', fullUser, changePassword(deps, limits));

  router.post('/update-profile', fullUser, updateProfile(deps));
  router.post('/update-avatar', fullUser, updateAvatar(deps));
  router.post('/welcome/profile-name', fullUser, setWelcomeName(deps));

  router.get('/sessions', fullUser, listSessions(deps));
  router.post('/sessions/revoke', fullUser, revokeSession(deps));
  router.post('/sessions/revoke-others', fullUser, revokeOtherSessions(deps));
  router.post('/logout', requireUser(deps, { allowUnverified: true }), logout(deps));

  // The page the reset e-mail links to; it only POSTs to /api/auth/reset-password when submitted.
  const pages = new Router();
  pages.get('/auth/reset', (ctx) => sendTokenPage(ctx, deps.random, renderResetPage));

  return [router, meRoutes(deps, limits), pages];
}
