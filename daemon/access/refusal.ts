import { ErrorCode } from '../../shared/errors.js';
import { DomainError } from '../domain-error.js';
import type { Verdict } from './permission.js';

/**
 * A refused verdict as the error a request answers with: a rotated key past its overlap is a
 * 401 `invalid_key` like a revoked one, an expired key a 401 `key_expired`, the tier a 402, a
 * missing scope a 403 `insufficient_scope` naming the scope. The routes' renderer (and the MCP
 * endpoint) give it its HTTP form.
 */
export function refusalOf(verdict: Verdict, tier?: string): DomainError {
  const message = verdict.message ?? 'Refused.';
  switch (verdict.rule) {
    case 'revoked':
      return new DomainError('unauthenticated', ErrorCode.invalidKey, message);
    case 'expiry':
      return new DomainError('unauthenticated', ErrorCode.keyExpired, message);
    case 'tier':
      return new DomainError('payment_required', ErrorCode.subscriptionRequired, message, tier ? { tier } : {});
    case 'rate_limit':
      return new DomainError('rate_limited', ErrorCode.rateLimited, message);
    default:
      return new DomainError(
        'forbidden',
        ErrorCode.insufficientScope,
        message,
        verdict.required_scope ? { required_scope: verdict.required_scope } : {},
      );
  }
}
