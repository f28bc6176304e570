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
  // companies, access keys and tenant selection (issue 5)
  companyNotFound: 'company_not_found',
  companyForbidden: 'company_forbidden',
  companyNameTaken: 'company_name_taken',
  keyNotFound: 'key_not_found',
  invalidKey: 'invalid_key',
  malformedKey: 'malformed_key',
  accountKeyMismatch: 'account_key_mismatch',
  // second factors and passwordless logins (issue 4)
  totpInvalidCode: 'totp_invalid_code',
  totpNotEnabled: 'totp_not_enabled',
  totpAlreadyEnabled: 'totp_already_enabled',
  totpNotPending: 'totp_enrolment_not_started',
  partialTokenInvalid: 'partial_token_invalid',
  loginCodeInvalid: 'login_code_invalid',
  magicLinkInvalid: 'magic_link_invalid',
  siweMessageInvalid: 'siwe_message_invalid',
  siweNonceInvalid: 'siwe_nonce_invalid',
  walletNotRegistered: 'wallet_not_registered',
  walletTaken: 'wallet_taken',
  walletInviteInvalid: 'invite_invalid',
  passkeyChallengeInvalid: 'passkey_challenge_invalid',
  passkeyVerificationFailed: 'passkey_verification_failed',
  passkeyTaken: 'passkey_already_registered',
  passkeyNotFound: 'passkey_not_found',
  // security review (review-1)
  recentLoginRequired: 'recent_login_required',
} as const;

export type ErrorCodeName = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The JSON body of every error answer (CONTRACT §4). */
export interface ErrorBody {
  error: string;
  code: string;
  request_id?: string;
  [extra: string]: unknown;
}
