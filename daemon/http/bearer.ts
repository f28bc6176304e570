import type { Context } from 'koa';

/** The credential of `Authorization: Bearer <credential>`, or null when the header is absent or another scheme. */
export function bearerToken(ctx: Pick<Context, 'get'>): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
  return match ? match[1]! : null;
}
