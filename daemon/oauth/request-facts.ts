import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';

/**
 * What the audit trail may know of a token or revocation request: the client that made it, the
 * grant type and the account, never a code, token or secret. The library parses these (form)
 * bodies in its own Koa app, so the daemon's context never sees them; the library's middleware
 * notes the facts against the Node request, which both apps share, and the hand-over copies them
 * to `ctx.state.oauthRequest` for the trail.
 */
export interface OAuthRequestFacts {
  client_id: string | null;
  grant_type: string | null;
  user_id: string | null;
  /** The OAuth error code a refusal answered (`invalid_grant`, `invalid_client`), else null. */
  error: string | null;
}

const noted = new WeakMap<IncomingMessage, OAuthRequestFacts>();

/** Client ids are URLs or generated ids; anything longer is cut so a caller cannot fill the trail. */
const short = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.slice(0, 300) : null);

interface OidcView {
  client?: { clientId?: string };
  body?: Record<string, unknown>;
  entities?: Record<string, { accountId?: string } | undefined>;
}

/** Installs the note-taker on the library's app: after each request, whether it succeeded or was refused. */
export function noteRequestFacts(provider: Provider): void {
  provider.use(async (ctx, next) => {
    try {
      await next();
    } finally {
      const oidc = (ctx as unknown as { oidc?: OidcView }).oidc;
      if (oidc) {
        const entities = oidc.entities ?? {};
        const account =
          entities.AuthorizationCode?.accountId ??
          entities.RefreshToken?.accountId ??
          entities.AccessToken?.accountId ??
          null;
        noted.set(ctx.req, {
          // The authenticated client, else the one the body claimed (a refusal for an unknown client names it too).
          client_id:
            short(oidc.client?.clientId) ?? short(oidc.body?.client_id) ?? basicClientId(ctx.get('authorization')),
          grant_type: short(oidc.body?.grant_type),
          user_id: short(account),
          error: short((ctx.body as { error?: unknown } | null)?.error),
        });
      }
    }
  });
}

/** The facts the library noted for this request, if it got far enough to parse it. */
export function requestFactsOf(req: IncomingMessage): OAuthRequestFacts | undefined {
  return noted.get(req);
}

/** The client id half of `Authorization: Basic` (RFC 6749 §2.3.1); the secret half is never read. */
function basicClientId(header: string): string | null {
  if (!/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  try {
    return short(decodeURIComponent(decoded.slice(0, colon)));
  } catch {
    return null;
  }
}
