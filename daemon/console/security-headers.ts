import type { Context } from 'koa';

/**
 * The console's Content-Security-Policy: scripts and styles only from this origin's files (no
 * inline script or style, no eval), API calls only to this origin, no framing (clickjacking on
 * the approve buttons of pairing and passkeys), no <base> or foreign form targets. Images may be
 * data:/blob: URLs: the avatar is fetched with the bearer token and shown from a blob.
 */
const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function setConsoleHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', CONSOLE_CSP);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // A magic-link page's URL carries its token: it must not leave in a Referer.
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
}
