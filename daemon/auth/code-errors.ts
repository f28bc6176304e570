import { ErrorCode } from '../../shared/errors.js';
import { invalid, type DomainError } from '../domain-error.js';
import type { CodeAttempt } from '../store/types.js';

/**
 * The answer to a refused code. "No live code" and "wrong code" read the same, so verify cannot
 * tell an attacker which addresses have a code waiting.
 */
export function codeRefusal(reason: Extract<CodeAttempt, { ok: false }>['reason']): DomainError {
  switch (reason) {
    case 'expired':
      return invalid('This code has expired. Ask for a new one.', ErrorCode.codeExpired);
    case 'burned':
      return invalid('Too many wrong tries: this code no longer works. Ask for a new one.', ErrorCode.codeBurned);
    default:
      return invalid('The code is wrong or no longer valid.', ErrorCode.invalidCode);
  }
}
