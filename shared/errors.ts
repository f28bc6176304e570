/**
 * The error-code catalog: every `code` the daemon puts in an error body `{ error, code }`.
 * Codes are stable snake_case names that scripts may branch on; the `error` sentence is for people.
 */
export const ErrorCode = {
  // generic HTTP
  badRequest: 'bad_request',
  invalidJson: 'invalid_json',
  validationFailed: 'validation_failed',
  unsupportedMediaType: 'unsupported_media_type',
  payloadTooLarge: 'payload_too_large',
  notFound: 'not_found',
  routeNotFound: 'route_not_found',
  methodNotAllowed: 'method_not_allowed',
  conflict: 'conflict',
  rateLimited: 'rate_limited',
  internal: 'internal_error',
  /** `svc dev clock` on a daemon whose clock may not move (team mode, a non-loopback bind), or backwards. */
  clockNotMovable: 'clock_not_movable',
  clockBackwards: 'clock_backwards',
  /** The mail server (--smtp) could not take a message; 503 with Retry-After. */
  mailUnavailable: 'mail_unavailable',
  /** Team mode: the PostgreSQL database cannot be reached; 503 with Retry-After. */
  databaseUnavailable: 'database_unavailable',
  /** Team mode: the database gave up on this request for a conflicting one (deadlock); nothing changed; 503. */
  databaseBusy: 'database_busy',
  /** A library the daemon loads on first use (wallet, passkeys, MCP, SMTP) failed to load; 503. */
  featureUnavailable: 'feature_unavailable',
  // credentials
  unauthorized: 'unauthorized',
  invalidToken: 'invalid_token',
  sessionRevoked: 'session_revoked',
  verificationPending: 'verification_pending',
  forbidden: 'forbidden',
  operatorTokenRequired: 'operator_token_required',
  // tiers and tenants
  subscriptionRequired: 'subscription_required',
  companyRequired: 'company_required',
  // companies, access keys and tenant selection
  companyNotFound: 'company_not_found',
  companyForbidden: 'company_forbidden',
  companyNameTaken: 'company_name_taken',
  keyNotFound: 'key_not_found',
  invalidKey: 'invalid_key',
  keyExpired: 'key_expired',
  insufficientScope: 'insufficient_scope',
  keyAlreadyRotated: 'key_already_rotated',
  keyLifetimeTooLong: 'key_lifetime_too_long',
  unknownOperation: 'unknown_operation',
  malformedKey: 'malformed_key',
  accountKeyMismatch: 'account_key_mismatch',
  // Company members, roles and invitations
  invitationNotFound: 'invitation_not_found',
  invitationExpired: 'invitation_expired',
  invitationEmailMismatch: 'invitation_email_mismatch',
  alreadyMember: 'already_member',
  memberNotFound: 'member_not_found',
  ownerRoleFixed: 'owner_role_fixed',
  ownerMustTransfer: 'owner_must_transfer',
  ambiguousCompany: 'ambiguous_company',
  // second factors and passwordless logins
  totpInvalidCode: 'totp_invalid_code',
  totpNotEnabled: 'totp_not_enabled',
  totpAlreadyEnabled: 'totp_already_enabled',
  totpNotPending: 'totp_enrolment_not_started',
  partialTokenInvalid: 'partial_token_invalid',
  loginCodeInvalid: 'login_code_invalid',
  magicLinkInvalid: 'magic_link_invalid',
  // device pairing: `svc login --web`
  pairingNotFound: 'pairing_not_found',
  pairingDenied: 'pairing_denied',
  /** The session that approved the pairing ended (revoked, expired, password changed or reset) before the CLI collected it; 403. */
  pairingApprovalEnded: 'pairing_approval_ended',
  /** Approving a pairing needs a login from the last few minutes (auth.factors.recentLoginMs); 403. */
  reauthRequired: 'reauth_required',
  consoleNotBuilt: 'console_not_built',
  siweMessageInvalid: 'siwe_message_invalid',
  siweNonceInvalid: 'siwe_nonce_invalid',
  walletNotRegistered: 'wallet_not_registered',
  walletTaken: 'wallet_taken',
  walletInviteInvalid: 'invite_invalid',
  passkeyChallengeInvalid: 'passkey_challenge_invalid',
  passkeyVerificationFailed: 'passkey_verification_failed',
  passkeyTaken: 'passkey_already_registered',
  passkeyNotFound: 'passkey_not_found',
  // MCP endpoint: the Streamable HTTP transport's HTTP-level refusals
  notAcceptable: 'not_acceptable',
  originNotAllowed: 'origin_not_allowed',
  hostNotAllowed: 'host_not_allowed',
  unsupportedProtocolVersion: 'unsupported_protocol_version',
  invalidProtocolVersion: 'invalid_protocol_version',
  // runtime and events
  agentNotFound: 'agent_not_found',
  sessionNotFound: 'session_not_found',
  questNotFound: 'quest_not_found',
  eventNotFound: 'event_not_found',
  invalidEventPattern: 'invalid_event_pattern',
  dottedEventName: 'dotted_event_name',
  unknownTool: 'unknown_tool',
  invalidToolArgs: 'invalid_tool_args',
  invalidEventReference: 'invalid_event_reference',
  idempotencyKeyReused: 'idempotency_key_reused',
  matcherUnsupported: 'matcher_unsupported',
  invalidTransition: 'invalid_transition',
  sessionStopped: 'session_stopped',
  noAgentForRecipient: 'no_agent_for_recipient',
  // accounts: signup, verification, password login, recovery, profile, sessions
  invalidCredentials: 'invalid_credentials',
  accountLocked: 'account_locked',
  inviteInvalid: 'invite_invalid',
  passwordInvalid: 'password_invalid',
  invalidCode: 'invalid_code',
  codeExpired: 'code_expired',
  codeBurned: 'code_burned',
  alreadyVerified: 'already_verified',
  resetTokenInvalid: 'reset_token_invalid',
  emailTaken: 'email_taken',
  sameEmail: 'same_email',
  noEmailChange: 'no_email_change',
  avatarInvalid: 'avatar_invalid',
  avatarTooLarge: 'avatar_too_large',
  avatarNotSet: 'avatar_not_set',
  // emitters: schedules, detectors, channels
  invalidSchedule: 'invalid_schedule',
  invalidMatcher: 'invalid_matcher',
  // a configured event's retry policy; then a webhook channel's deliveries
  invalidRetry: 'invalid_retry',
  // a configured event's debounce, throttle or concurrency
  invalidFlowControl: 'invalid_flow_control',
  signatureInvalid: 'signature_invalid',
  signatureExpired: 'signature_expired',
  channelExists: 'channel_exists',
  // operator surface
  userNotFound: 'user_not_found',
  // sensitive actions need a recent login
  recentLoginRequired: 'recent_login_required',
  // emitters: channels
  channelNotFound: 'channel_not_found',
  // the consent route of the authorization server (RFC 6749's error names, prefixed)
  oauthInvalidClient: 'oauth_invalid_client',
  oauthInvalidRedirectUri: 'oauth_invalid_redirect_uri',
  oauthInvalidRequest: 'oauth_invalid_request',
  oauthInvalidTarget: 'oauth_invalid_target',
  oauthInvalidScope: 'oauth_invalid_scope',
  // connected apps
  oauthGrantNotFound: 'grant_not_found',
} as const;

export type ErrorCodeName = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The JSON body of every error answer (CONTRACT §4). */
export interface ErrorBody {
  error: string;
  code: string;
  request_id?: string;
  [extra: string]: unknown;
}
