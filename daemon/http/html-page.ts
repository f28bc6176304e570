import type { Context } from 'koa';
import type { Random } from '../random.js';

/**
 * Serves one of the daemon's few small HTML pages (the magic-link and password-reset pages), each
 * opened from a link that carries a live token: a strict CSP whose only script is the page's own
 * (by nonce), no caching, and no Referer, so the token leaves neither in a cache nor in a header.
 */
export function sendTokenPage(ctx: Context, random: Random, render: (nonce: string) => string): void {
  const nonce = random.bytes(16).toString('base64');
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'`,
  );
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = render(nonce);
}
