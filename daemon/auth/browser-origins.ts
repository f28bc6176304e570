import { isIP } from 'node:net';
import type { Config } from '../config.js';

/**
 * Which browser origins may log in to this daemon, derived from its address.
 *
 * A browser refuses an IP address as a WebAuthn relying-party id, so a daemon reached at
 * `http://127.0.0.1:<port>` (the default) makes its passkeys for RP id `localhost`, and the
 * console must be opened at `http://localhost:<port>` to use them. The daemon's own public
 * origin stays allowed for everything else (SIWE, the console's other pages).
 */
export interface BrowserOrigins {
  /** Where a person should open the console: the localhost form when the public URL is an IP. */
  consoleUrl: string;
  /** Every origin a page of this daemon can have (public URL first). */
  origins: string[];
  /** WebAuthn: the RP id and the origins whose host is that RP id (or under it). */
  rpId: string;
  webauthnOrigins: string[];
}

export function browserOrigins(config: Pick<Config, 'publicUrl' | 'auth'>): BrowserOrigins {
  const url = new URL(config.publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = isIP(host) !== 0 ? new URL(`http://localhost${url.port ? `:${url.port}` : ''}`) : null;
  const origins = [...new Set([url.origin, ...(local ? [local.origin] : [])])];
  const f = config.auth.factors;
  const rpId = f.webauthnRpId ?? (local ? 'localhost' : host);
  const webauthnOrigins = f.webauthnOrigin
    ? [f.webauthnOrigin]
    : origins.filter((o) => underRpId(new URL(o).hostname, rpId));
  return { consoleUrl: (local ?? url).origin + '/', origins, rpId, webauthnOrigins };
}

const underRpId = (hostname: string, rpId: string) => hostname === rpId || hostname.endsWith(`.${rpId}`);
