import type Provider from 'oidc-provider';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A loopback http redirect URI without its port (normalised), or undefined for any other URI. */
function withoutLoopbackPort(uri: string): string | undefined {
  if (uri.includes('#')) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.username || url.password) return undefined;
  url.port = '';
  return url.href;
}

/**
 * RFC 8252 §7.3: a client on the user's machine listens on whatever port is free when it starts,
 * so a loopback redirect URI (`http://127.0.0.1`, `http://[::1]`, `http://localhost`) matches
 * the registered one on any port, with the same host, path and query. The library does this only
 * for clients registered as `application_type: native`, and most MCP clients register as web
 * clients (the default) with a loopback URI; their loopback URIs get the same rule here. Every other
 * URI still has to match exactly. Applies to registered clients and metadata-document clients alike
 * (Claude Code's document lists `http://localhost/callback` with no port).
 */
export function allowLoopbackRedirectsOnAnyPort(provider: Provider): void {
  const prototype = provider.Client.prototype;
  const exact = prototype.redirectUriAllowed;
  prototype.redirectUriAllowed = function redirectUriAllowed(this: InstanceType<Provider['Client']>, value: string) {
    if (exact.call(this, value)) return true;
    const asked = withoutLoopbackPort(value);
    return (
      asked !== undefined && (this.redirectUris ?? []).some((registered) => withoutLoopbackPort(registered) === asked)
    );
  };
}
