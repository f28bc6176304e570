import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError } from './api-error.js';

/** Whether a presented bearer value is an operator token; the data folder's one, or team mode's registered ones. */
export type OperatorTokenCheck = (presented: string) => Promise<boolean>;

/**
 * The check of a local daemon: its one token from the data folder. Both sides are hashed before
 * the constant-time compare so neither the length nor the matching prefix leaks through timing.
 */
export function matchOperatorToken(operatorToken: string): OperatorTokenCheck {
  const expected = sha256(operatorToken);
  return async (presented) => timingSafeEqual(sha256(presented), expected);
}

/** Guards the operator surface (CONTRACT §3): `Authorization: Bearer <operator token>` and nothing else. */
export function requireOperator(check: OperatorTokenCheck): Middleware {
  return async function operatorGuard(ctx, next) {
    const header = ctx.get('Authorization');
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match || !(await check(match[1]!))) {
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
