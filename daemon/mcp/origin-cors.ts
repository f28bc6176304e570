import type { Context, Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError } from '../http/api-error.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** What a browser client may send and read (the Streamable HTTP headers of every revision we serve). */
const ALLOW_HEADERS =
  'Authorization, X-Api-Key, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID';
const EXPOSE_HEADERS = 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Retry-After';

function parseOrigin(origin: string): URL | null {
  try {
    return new URL(origin);
  } catch {
    return null;
  }
}

/**
 * Origin first, before the key guard, so a page on a foreign origin is refused (403) whatever key
 * it carries: the transport spec's DNS-rebinding defence must not depend on the key being bad.
 *
 * Who passes: no Origin (CLI, SDKs, Claude Desktop), a loopback origin (a local tool on another
 * port cannot be a rebinding attack: rebinding shows the attacker's name as Origin), the daemon's
 * own public origin, and the configured ones. CORS answers (so a browser lets the page read the
 * reply) go only to the daemon's own and the configured origins: a loopback page is a tool the
 * user runs, but not one the daemon vouches for; add it to `mcpAllowedOrigins` to open it.
 * A preflight (OPTIONS) is answered here, without keys: browsers never send credentials on it.
 */
export function mcpOriginAndCors(allowed: Set<string>): Middleware {
  return function originAndCors(ctx: Context, next) {
    const origin = ctx.get('Origin');
    if (origin) {
      const url = parseOrigin(origin);
      const trusted = url !== null && allowed.has(url.origin);
      if (!trusted && !(url && LOOPBACK_HOSTS.has(url.hostname))) {
        throw new ApiError(
          403,
          ErrorCode.originNotAllowed,
          `Origin '${origin}' may not call /api/mcp. Allowed: loopback origins and ${[...allowed].join(', ') || 'none configured'}.`,
        );
      }
      ctx.vary('Origin');
      if (trusted) {
        ctx.set('Access-Control-Allow-Origin', url!.origin);
        ctx.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      }
    }
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'POST, GET, DELETE, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      ctx.set('Allow', 'POST, OPTIONS');
      ctx.status = 204;
      return Promise.resolve();
    }
    return next();
  };
}

/** The origins CORS answers: the daemon's public one plus the configured ones. */
export function trustedOrigins(publicUrl: string, extra: string[] = []): Set<string> {
  const out = new Set<string>([new URL(publicUrl).origin]);
  for (const o of extra) {
    const url = parseOrigin(o);
    if (url) out.add(url.origin);
  }
  return out;
}
