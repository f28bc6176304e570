import type { Tier } from '../shared/wire.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../shared/paths.js';
import { DEFAULT_FACTORS, type FactorsConfig } from './factors-config.js';

/**
 * Everything the daemon can be told. Security values default to SECURITY.md; tests may lower
 * costs (the password-hash cost, say) through overrides, never by changing these defaults.
 */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** The address users reach the daemon at; links in e-mails point here. */
  publicUrl: string;
  defaultTier: Tier;
  /** The longest lifetime a secret key may have, in seconds (`--max-key-lifetime`); unset: no cap. */
  maxKeyLifetimeSeconds?: number;
  limits: {
    /** SECURITY.md: 64 KiB on auth routes. */
    authBodyBytes: number;
    /** CONTRACT §4: 1 MiB elsewhere. */
    bodyBytes: number;
  };
  /**
   * Slow-loris defence: a connection that has not sent all its headers within
   * `headersMs`, or its whole request within `requestMs`, is answered 408 and closed. Node's own
   * defaults (60 s / 300 s, checked every 30 s) let a trickling client hold a socket for minutes.
   */
  timeouts: { headersMs: number; requestMs: number };
  /** Read the client address from X-Forwarded-For (off: a local daemon has no proxy in front). */
  trustProxy: boolean;
  /** Captured mail kept by the outbox; older messages are dropped past this. */
  outboxMax: number;
  /** SECURITY.md controls of the login side, at their defaults. */
  auth: AuthConfig;
  /**
   * Host names answered besides loopback's and publicUrl's (http/host-guard.ts, DNS-rebinding
   * defence): `--allowed-hosts a,b` / SVC_ALLOWED_HOSTS; `.example.com` for a domain, `*` for any.
   */
  allowedHosts?: string[];
  /** Password hashing threads and queue bound (auth/hash-pool.ts); unset: DEFAULT_HASH_POOL (2 threads, 32 waiting). */
  hashPool?: { threads: number; queue: number };
  /** Browser origins /api/mcp accepts besides loopback and publicUrl's (DNS-rebinding defence). */
  mcpAllowedOrigins?: string[];
  /** tools/call per secret key per minute on /api/mcp (the tools spec: servers MUST rate limit); default 120; 0 turns it off (benchmarks only). */
  mcpToolCallsPerMinute?: number;
  /** What the scheduler does with ticks missed while the daemon was down (docs/emitters.md). */
  scheduleMissed?: 'latest' | 'skip' | 'all';
  /** Compaction as delegation (`--compaction-role` / SVC_COMPACTION_ROLE, SVC_COMPACTION_TIMEOUT_MS); unset: off. */
  compaction?: { role: string; timeoutMs?: number };
  /** Send mail over SMTP (`--smtp` / SVC_SMTP_URL); unset, mail is captured in the outbox. */
  smtpUrl?: string;
  /**
   * Team mode (`--database` / SVC_DATABASE_URL): everything is stored in this PostgreSQL
   * database instead of the data folder (daemon/store/open.ts). It holds a password: never log it.
   */
  databaseUrl?: string;
  /** Days the audit trail keeps an entry (SVC_AUDIT_RETENTION_DAYS); unset: 400; 0 keeps every entry. */
  auditRetentionDays?: number;
  /**
   * How long a dynamically registered OAuth client lives unused, in seconds (SVC_OAUTH_CLIENT_IDLE,
   * a duration such as 30d); unset: 30 days (daemon/oauth/lifetimes.ts).
   */
  oauthClientIdleSeconds?: number;
  /** `--movable-clock`: `svc dev clock` may move this daemon's clock although it binds a non-loopback address. */
  movableClock?: boolean;
}

/** scrypt cost (SECURITY.md: N=2^17, r=8, p=1, maxmem 256 MiB). Tests lower it; the default never changes. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

export interface AuthConfig {
  passwordHash: ScryptParams;
  /** 24 h absolute: there is no refresh, the user logs in again. */
  sessionTtlMs: number;
  /** E-mailed codes and magic links: 10 min. */
  codeTtlMs: number;
  /** Wrong tries that burn a code. */
  codeMaxTries: number;
  /** Consecutive failures per account and factor before a lock-out, and its length. */
  failureCeiling: number;
  lockoutMs: number;
  /** Second factors and passwordless logins (daemon/factors-config.ts). */
  factors: FactorsConfig;
  // accounts: the signup/resend bucket, the login throttle and the reset-link lifetime
  /** The rule of the signup and resend-code buckets (daemon/auth/limits.ts): 1 per 60 s and 5 per hour. */
  signupPerEmail: { limit: number; windowMs: number }[];
  /** Routes that send e-mail (signup, resend, forgot-password, e-mail change), per client address: 30 per 5 min. */
  mailPerAddress: { limit: number; windowMs: number }[];
  /** Password login per client address: 30 per 5 min (the per-account ceiling comes on top). */
  loginPerAddress: { limit: number; windowMs: number }[];
  /** Password-reset links: 30 min. */
  resetTtlMs: number;
}

export const DEFAULT_AUTH: AuthConfig = {
  passwordHash: { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 },
  sessionTtlMs: 24 * 3600_000,
  codeTtlMs: 10 * 60_000,
  codeMaxTries: 5,
  failureCeiling: 10,
  lockoutMs: 15 * 60_000,
  factors: DEFAULT_FACTORS,
  signupPerEmail: [
    { limit: 1, windowMs: 60_000 },
    { limit: 5, windowMs: 3600_000 },
  ],
  mailPerAddress: [{ limit: 30, windowMs: 5 * 60_000 }],
  loginPerAddress: [{ limit: 30, windowMs: 5 * 60_000 }],
  resetTtlMs: 30 * 60_000,
};

export type ConfigOverrides = Omit<Partial<Config>, 'auth'> & { auth?: Partial<AuthConfig> };

export function defaultConfig(overrides: ConfigOverrides = {}): Config {
  const host = overrides.host ?? DEFAULT_HOST;
  const port = overrides.port ?? DEFAULT_PORT;
  return {
    host,
    port,
    dataDir: '',
    publicUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    defaultTier: 'trial',
    limits: { authBodyBytes: 64 * 1024, bodyBytes: 1024 * 1024 },
    timeouts: { headersMs: 5_000, requestMs: 15_000 },
    trustProxy: false,
    outboxMax: 1000,
    ...overrides,
    auth: { ...DEFAULT_AUTH, ...overrides.auth },
  };
}
