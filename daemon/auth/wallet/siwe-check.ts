import type { SiweMessage } from 'siwe';
import type { Deps } from '../../deps.js';
import { browserOrigins } from '../browser-origins.js';
import { consumeChallenge } from '../one-time.js';
import { loadWalletLibs } from './wallet-libs.js';

/**
 * Sign-In with Ethereum (EIP-4361), checked as SECURITY.md lists: the nonce first (consumed before
 * anything else, so a replayed message fails even if something later would too), then domain, URI,
 * version, chain id allow-list, issued-at age, expiration / not-before, and finally the signer.
 */
export type SiweCheck =
  | { ok: true; address: string }
  | { ok: false; reason: 'malformed' | 'nonce' | 'claims' | 'signature'; detail: string };

/**
 * The domains and origins a message may name: config, else every origin of the daemon
 * (its public URL, and `localhost:<port>` when that is an IP: the console is opened there for passkeys).
 */
function expectedSiweScopes(config: Deps['config']): { domain: string; origin: string }[] {
  const f = config.auth.factors;
  if (f.siweDomain || f.siweOrigin) {
    const url = new URL(config.publicUrl);
    return [{ domain: f.siweDomain ?? url.host, origin: f.siweOrigin ?? url.origin }];
  }
  return browserOrigins(config).origins.map((origin) => ({ domain: new URL(origin).host, origin }));
}

/** The scope to tell a client: the one of the page asking (its Origin header), else the public URL's. */
export function expectedSiweScope(config: Deps['config'], pageOrigin?: string): { domain: string; origin: string } {
  const scopes = expectedSiweScopes(config);
  return scopes.find((s) => s.origin === pageOrigin) ?? scopes[0]!;
}

export async function checkSiweMessage(
  deps: Pick<Deps, 'clock' | 'stores' | 'config'>,
  text: string,
  signature: string,
): Promise<SiweCheck> {
  const { SiweMessage, getAddress, verifyMessage } = await loadWalletLibs();
  let message: SiweMessage;
  try {
    message = new SiweMessage(text);
  } catch {
    return { ok: false, reason: 'malformed', detail: 'The message is not a Sign-In with Ethereum (EIP-4361) message.' };
  }
  if (typeof message.nonce !== 'string' || typeof message.address !== 'string') {
    return { ok: false, reason: 'malformed', detail: 'The message has no nonce or address.' };
  }
  const nonce = await consumeChallenge(deps, 'siwe_nonce', message.nonce);
  if (!nonce || nonce.subject !== message.address.toLowerCase()) {
    return {
      ok: false,
      reason: 'nonce',
      detail: 'The nonce is unknown, expired, used already, or was issued for another address. Ask for a new one.',
    };
  }
  const problem = claimProblem(deps, message);
  if (problem) return { ok: false, reason: 'claims', detail: problem };
  let signer: string;
  try {
    // The signature covers the exact text the wallet showed, so verify that text, not a re-rendering of it.
    signer = verifyMessage(text, signature);
  } catch {
    return { ok: false, reason: 'signature', detail: 'The signature is not valid.' };
  }
  if (signer !== getAddress(message.address))
    return { ok: false, reason: 'signature', detail: 'The message was not signed by the address it names.' };
  return { ok: true, address: signer.toLowerCase() };
}

function claimProblem(deps: Pick<Deps, 'clock' | 'config'>, m: SiweMessage): string | null {
  const scopes = expectedSiweScopes(deps.config);
  const scope = scopes.find((s) => s.domain === m.domain);
  const f = deps.config.auth.factors;
  const now = deps.clock.now();
  if (!scope)
    return `The message is for ${m.domain}; this service signs in at ${scopes.map((s) => s.domain).join(' or ')}.`;
  if (originOf(m.uri) !== scope.origin) return `The message URI must be on ${scope.origin}.`;
  if (m.version !== '1') return 'Only SIWE version 1 is supported.';
  if (!f.siweChainIds.includes(Number(m.chainId)))
    return `Chain id ${m.chainId} is not accepted (accepted: ${f.siweChainIds.join(', ')}).`;
  const issued = Date.parse(m.issuedAt ?? '');
  // A minute of clock skew in the client's favour; older than 10 minutes is refused.
  if (Number.isNaN(issued) || issued > now + 60_000 || now - issued > f.siweMaxAgeMs)
    return 'The message was issued too long ago (or in the future). Sign a fresh one.';
  if (m.expirationTime && !(Date.parse(m.expirationTime) > now)) return 'The message has expired.';
  if (m.notBefore && !(Date.parse(m.notBefore) <= now)) return 'The message is not valid yet.';
  return null;
}

function originOf(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}
