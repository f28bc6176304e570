/**
 * The audit decision of every route outside the Company routes, by `METHOD pattern`: what entry it
 * leaves, or null for none (a read, or a step that changes nothing yet, such as asking for a
 * code). tests/daemon/audit/route-actions.test.ts walks every route the app serves and fails on
 * one without a row, so a new route cannot ship without a decision. Company routes need none:
 * each call made with a key is recorded as `rest.call` (trail.ts), and every MCP tools/call as
 * `mcp.tools_call`.
 */
export interface RouteAudit {
  action: string;
  /** The login factor, for `account.login`. */
  factor?: string;
  /** The account is named by the body's `email` (a login that failed has no session to say whose it was). */
  byEmail?: boolean;
}

const login = (factor: string, byEmail = false): RouteAudit => ({ action: 'account.login', factor, byEmail });

export const ROUTE_ACTIONS: Readonly<Record<string, RouteAudit | null>> = {
  // accounts
  'POST /api/auth/signup': { action: 'account.signup', byEmail: true },
  'POST /api/auth/verify': { action: 'account.verify' },
  'POST /api/auth/resend-code': null,
  'POST /api/auth/login': login('password', true),
  'POST /api/auth/login/email': login('password', true),
  'POST /api/auth/totp/login': login('totp'),
  'POST /api/auth/login/code/request': null,
  'POST /api/auth/login/code/consume': login('email_code', true),
  'POST /api/auth/login/magic/consume': login('magic_link'),
  'POST /api/auth/passkey/login-begin': null,
  'POST /api/auth/passkey/login-finish': login('passkey'),
  'POST /api/auth/wallet/nonce': null,
  'POST /api/auth/wallet/login': login('wallet'),
  'POST /api/auth/wallet/signup': { action: 'account.signup', factor: 'wallet' },
  'POST /api/auth/wallet/link': { action: 'account.wallet_link' },
  'POST /api/auth/forgot-password': { action: 'account.password_reset_request', byEmail: true },
  'POST /api/auth/reset-password': { action: 'account.password_reset' },
  'POST /api/auth/change-password': { action: 'account.password_change' },
  'POST /api/auth/update-profile': null,
  'POST /api/auth/update-avatar': null,
  'POST /api/auth/welcome/profile-name': null,
  'GET /api/auth/sessions': null,
  'POST /api/auth/sessions/revoke': { action: 'account.session_revoke' },
  'POST /api/auth/sessions/revoke-others': { action: 'account.session_revoke_others' },
  'POST /api/auth/logout': { action: 'account.logout' },
  'GET /api/auth/totp': null,
  'POST /api/auth/totp/enroll': null,
  'POST /api/auth/totp/enroll/confirm': { action: 'account.totp_enrol' },
  'POST /api/auth/totp/disable': { action: 'account.totp_remove' },
  'POST /api/auth/totp/recovery-codes': { action: 'account.recovery_codes_renew' },
  'POST /api/auth/passkey/register-begin': null,
  'POST /api/auth/passkey/register-finish': { action: 'account.passkey_enrol' },
  'GET /api/auth/passkeys': null,
  'DELETE /api/auth/passkeys/:id': { action: 'account.passkey_remove' },
  'GET /api/me': null,
  'GET /api/me/avatar': null,
  'POST /api/me/email/change/begin': { action: 'account.email_change_request' },
  'POST /api/me/email/change/finish': { action: 'account.email_change' },
  // `svc login --web`: the approval hands a session to another device
  'POST /api/auth/pairing/start': null,
  'POST /api/auth/pairing/poll': null,
  'POST /api/auth/pairing/lookup': null,
  'POST /api/auth/pairing/approve': { action: 'account.pairing_approve' },
  'POST /api/auth/pairing/deny': { action: 'account.pairing_deny' },
  // Companies and billing
  'POST /api/companies': { action: 'company.create' },
  'GET /api/companies': null,
  'GET /api/billing/plan': null,
  // keys
  'POST /api/keys': { action: 'key.create' },
  'GET /api/keys': null,
  'DELETE /api/keys/:id': { action: 'key.revoke' },
  'POST /api/keys/:id/rotate': { action: 'key.rotate' },
  'POST /api/keys/:id/explain': null,
  'POST /api/account/api-key': { action: 'account_key.rotate' },
  'POST /api/mcp/validate': { action: 'key.validate' },
  // OAuth for MCP clients: consent, tokens, revocation, client registration
  'POST /api/oauth/authorize': { action: 'oauth.consent' },
  'GET /api/oauth/clients/:clientId': null,
  // a Company's people
  'DELETE /api/companies/:id': { action: 'company.delete' },
  'GET /api/companies/:id/members': null,
  'PATCH /api/companies/:id/members/:user_id': { action: 'company.member_role' },
  'DELETE /api/companies/:id/members/:user_id': { action: 'company.member_remove' },
  'POST /api/companies/:id/leave': { action: 'company.leave' },
  'POST /api/companies/:id/transfer': { action: 'company.transfer' },
  'POST /api/companies/:id/invitations': { action: 'company.invite' },
  'GET /api/companies/:id/invitations': null,
  'DELETE /api/companies/:id/invitations/:invitation_id': { action: 'company.invite_revoke' },
  'POST /api/invitations/accept': { action: 'company.invite_accept' },
  'GET /api/oauth/grants': null,
  'DELETE /api/oauth/grants/:id': { action: 'oauth.grant_revoke' },
  'POST /oauth/token': { action: 'oauth.token' },
  'POST /oauth/revoke': { action: 'oauth.revoke' },
  'POST /oauth/register': { action: 'oauth.client_register' },
  'GET /oauth/authorize': null,
  'GET /oauth/authorize/:uid': null,
  'GET /oauth/jwks': null,
  'GET /oauth/register/:clientId': null,
  'OPTIONS /oauth/token': null,
  'OPTIONS /oauth/revoke': null,
  'GET /.well-known/oauth-authorization-server': null,
  'OPTIONS /.well-known/oauth-authorization-server': null,
  'GET /.well-known/openid-configuration': null,
  'OPTIONS /.well-known/openid-configuration': null,
  'GET /.well-known/oauth-protected-resource': null,
  'GET /.well-known/oauth-protected-resource/api/mcp': null,
  // the operator surface
  'GET /api/dev/mail': null,
  'POST /api/dev/invites': { action: 'operator.invite' },
  'POST /api/dev/tier': { action: 'operator.tier', byEmail: true },
  'POST /api/dev/users': { action: 'operator.seed_users' },
  'GET /api/dev/clock': null,
  'POST /api/dev/clock': { action: 'operator.clock' },
  // reading the trail leaves no entry (a follower would fill it with its own polls)
  'GET /api/audit': null,
  'GET /api/audit/:id/trace': null,
  'GET /api/dev/audit': null,
  'GET /api/dev/audit/verify': null,
  // signed deliveries with no credential; what they set off is in the events trace
  'POST /api/webhooks/:channel': null,
  'GET /healthz': null,
  'GET /': null,
  'GET /console/:file': null,
  'GET /auth/magic': null,
  'GET /auth/reset': null,
};
