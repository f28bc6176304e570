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
  // operator surface (issue 2)
  userNotFound: 'user_not_found',
} as const;

export type ErrorCodeName = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The JSON body of every error answer (CONTRACT §4). */
export interface ErrorBody {
  error: string;
  code: string;
  request_id?: string;
  [extra: string]: unknown;
}
