import { isIP } from 'node:net';
import type { Context } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import type { Config } from '../config.js';
import { ApiError } from './api-error.js';

/** The names a loopback daemon answers to (also the loopback origins /api/mcp accepts). */
export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * DNS-rebinding defence for every route, not only /api/mcp. A web page on evil.example can point
 * its own name at 127.0.0.1 and then call the daemon from the user's browser: the request arrives
 * with `Host: evil.example`. So a daemon bound to loopback answers only its own names
 * (localhost, 127.0.0.1, [::1], any port); one bound elsewhere also takes IP literals (a browser
 * only sends one when the page itself came from that address) and the names of the allow-list
 * (`--allowed-hosts`, SVC_ALLOWED_HOSTS: exact names, `.example.com` for a domain and its
 * sub-domains, or `*` to switch the check off behind a proxy that checks Host itself).
 * The host of publicUrl is always allowed. A request with no Host (HTTP/1.0) cannot be a rebinding.
 */
export function createHostCheck(config: Pick<Config, 'host' | 'publicUrl' | 'allowedHosts'>): (ctx: Context) => void {
  // An entry is matched as a Host name is read: lower-cased, without the root's trailing dot.
  const allowed = new Set([
    ...LOOPBACK_HOSTS,
    ...(config.allowedHosts ?? []).map((h) => h.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean),
  ]);
  allowed.add(hostnameOf(new URL(config.publicUrl).host));
  const openToAll = allowed.has('*');
  const suffixes = [...allowed].filter((h) => h.startsWith('.'));
  const loopbackBind = isLoopback(config.host);
  const accepts = (name: string) =>
    allowed.has(name) ||
    // `.corp.example` is corp.example and names ending in `.corp.example` (the dot is part of the
    // suffix, so evilcorp.example is not one), and only names a browser can send: a Host such as
    // `evil.example/.corp.example` is no sub-domain, whatever it ends with.
    (DNS_NAME.test(name) && suffixes.some((s) => name.endsWith(s) || name === s.slice(1))) ||
    (!loopbackBind && isIP(name.replace(/^\[|\]$/g, '')) !== 0);

  // The last Host value accepted, compared first: clients send the same one on every request, and
  // the answer depends on the value alone (a Host header is public, so remembering it reveals nothing).
  let lastAccepted = '';
  return function checkHost(ctx) {
    const header = ctx.get('Host');
    if (openToAll || !header || header === lastAccepted) return;
    if (accepts(hostnameOf(header))) {
      lastAccepted = header;
      return;
    }
    const names = loopbackBind ? 'localhost, 127.0.0.1 and [::1]' : `IP addresses and ${[...allowed].join(', ')}`;
    throw new ApiError(
      421,
      ErrorCode.hostNotAllowed,
      `This daemon does not answer to Host '${header.slice(0, 200)}' (it answers ${names}). To reach it under that name, start it with --allowed-hosts ${hostnameOf(header).slice(0, 100)}.`,
      { host: header.slice(0, 200) },
    );
  };
}

/** Dot-separated labels of letters, digits, `-` and `_`, none empty (a name, lower-cased). */
const DNS_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

/** `Example.com:7878` → `example.com`; `[::1]:7878` → `[::1]`. */
function hostnameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) {
    // `[v6]` or `[v6]:port`; with anything else after the bracket the whole value is kept, and it
    // then matches no name and no address.
    const end = lower.indexOf(']') + 1;
    return end > 0 && /^(:\d*)?$/.test(lower.slice(end)) ? lower.slice(0, end) : lower;
  }
  const colon = lower.lastIndexOf(':');
  return (colon >= 0 && lower.indexOf(':') === colon ? lower.slice(0, colon) : lower).replace(/\.$/, '');
}

export function isLoopback(bind: string): boolean {
  return LOOPBACK_HOSTS.has(bind) || /^127\./.test(bind) || bind === '[::1]';
}
