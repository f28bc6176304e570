import { isIP } from 'node:net';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import type { Config } from '../config.js';
import { ApiError } from './api-error.js';

/** The names a loopback daemon answers to (also the loopback origins /api/mcp accepts). */
export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * DNS-rebinding defence for every route (issue 14 finding 7). A web page on evil.example can point
 * its own name at 127.0.0.1 and then call the daemon from the user's browser: the request arrives
 * with `Host: evil.example`. So a daemon bound to loopback answers only its own names
 * (localhost, 127.0.0.1, [::1], any port); one bound elsewhere also takes IP literals (a browser
 * only sends one when the page itself came from that address) and the names of the allow-list
 * (`--allowed-hosts`, SVC_ALLOWED_HOSTS: exact names, `.example.com` for a domain and its
 * sub-domains, or `*` to switch the check off behind a proxy that checks Host itself).
 * The host of publicUrl is always allowed. A request with no Host (HTTP/1.0) cannot be a rebinding.
 */
export function hostGuard(config: Pick<Config, 'host' | 'publicUrl' | 'allowedHosts'>): Middleware {
  const allowed = new Set([
    ...LOOPBACK_HOSTS,
    ...(config.allowedHosts ?? []).map((h) => h.trim().toLowerCase()).filter(Boolean),
  ]);
  allowed.add(hostnameOf(new URL(config.publicUrl).host));
  const openToAll = allowed.has('*');
  const suffixes = [...allowed].filter((h) => h.startsWith('.'));
  const loopbackBind = isLoopback(config.host);
  const accepts = (name: string) =>
    allowed.has(name) ||
    suffixes.some((s) => name.endsWith(s) || name === s.slice(1)) ||
    (!loopbackBind && isIP(name.replace(/^\[|\]$/g, '')) !== 0);

  return async function checkHost(ctx, next) {
    const header = ctx.get('Host');
    if (openToAll || !header || accepts(hostnameOf(header))) return next();
    const names = loopbackBind ? 'localhost, 127.0.0.1 and [::1]' : `IP addresses and ${[...allowed].join(', ')}`;
    throw new ApiError(
      421,
      ErrorCode.hostNotAllowed,
      `This daemon does not answer to Host '${header.slice(0, 200)}' (it answers ${names}). To reach it under that name, start it with --allowed-hosts ${hostnameOf(header).slice(0, 100)}.`,
      { host: header.slice(0, 200) },
    );
  };
}

/** `Example.com:7878` → `example.com`; `[::1]:7878` → `[::1]`. */
function hostnameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  const colon = lower.lastIndexOf(':');
  return (colon >= 0 && lower.indexOf(':') === colon ? lower.slice(0, colon) : lower).replace(/\.$/, '');
}

function isLoopback(bind: string): boolean {
  return LOOPBACK_HOSTS.has(bind) || /^127\./.test(bind) || bind === '[::1]';
}
