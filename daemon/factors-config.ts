/**
 * Settings of the second factors and passwordless logins (SECURITY.md values as defaults).
 * Tests may override them through `config.auth.factors`; the defaults never change for them.
 */
export interface FactorsConfig {
  /** Issuer shown in authenticator apps (`otpauth://totp/<issuer>:<account>`). */
  totpIssuer: string;
  /** A pending TOTP enrolment must be confirmed within this time. */
  totpEnrolTtlMs: number;
  /** `partial_token` of a TOTP-pending login: 5 min, 5 tries. */
  partialTtlMs: number;
  partialMaxTries: number;
  /** SIWE: the `domain` and `uri` origin a message must name; null = taken from the daemon's public URL. */
  siweDomain: string | null;
  siweOrigin: string | null;
  /** Chain ids a SIWE message may name (1 = Ethereum mainnet). */
  siweChainIds: number[];
  /** Nonce lifetime and the oldest `Issued At` accepted: 10 min each. */
  siweNonceTtlMs: number;
  siweMaxAgeMs: number;
  /**
   * WebAuthn relying party: exact RP ID and origin. null (the default) derives both from the
   * daemon's public URL (daemon/auth/browser-origins.ts): a browser never uses an IP address as an
   * RP ID, so a daemon on 127.0.0.1:<port> uses `localhost` and `http://localhost:<port>`.
   */
  webauthnRpId: string | null;
  webauthnRpName: string;
  webauthnOrigin: string | null;
  /** 32-byte challenges, single use, 5 min. */
  webauthnChallengeTtlMs: number;
  /** Adding a passkey or starting a TOTP enrolment needs a session this young (daemon/auth/recent-login.ts). */
  recentLoginMs: number;
  /** Requests per client address and route family, per 5 min (login codes, wallet, passkeys, TOTP). */
  perAddressLimit: number;
}

export const DEFAULT_FACTORS: FactorsConfig = {
  totpIssuer: 'svc',
  totpEnrolTtlMs: 15 * 60_000,
  partialTtlMs: 5 * 60_000,
  partialMaxTries: 5,
  siweDomain: null,
  siweOrigin: null,
  siweChainIds: [1],
  siweNonceTtlMs: 10 * 60_000,
  siweMaxAgeMs: 10 * 60_000,
  webauthnRpId: null,
  webauthnRpName: 'svc',
  webauthnOrigin: null,
  webauthnChallengeTtlMs: 5 * 60_000,
  recentLoginMs: 10 * 60_000,
  perAddressLimit: 30,
};
