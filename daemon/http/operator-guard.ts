import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError } from './api-error.js';

/**
 * Guards the operator surface (CONTRACT §3): `Authorization: Bearer <operator token>` and nothing else.
 * Both sides are hashed before the constant-time compare so neither the length nor the matching
 * prefix of the token leaks through timing.
 */
export function requireOperator(operatorToken: string): Middleware {
  const expected = sha256(operatorToken);
  return async function operatorGuard(ctx, next) {
    const header = ctx.get('Authorization');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match || !timingSafeEqual(sha256(match[1]!), expected)) {
      throw new ApiError(
        401,
        ErrorCode.operatorTokenRequired,
        'The operator routes need Authorization: Bearer <operator token>; the token is in the file operator-token of the data folder.',
      );
    }
    await next();
  };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();
