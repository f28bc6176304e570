import { DEFAULT_HOST, DEFAULT_PORT, resolveDataDir } from '../shared/paths.js';
import { TIERS, type Tier } from '../shared/wire.js';
import { parseDuration } from '../shared/duration.js';
import { DEFAULT_AUTH, defaultConfig, type Config } from './config.js';
import type { LineOutput } from './logger.js';
import { checkSmtpUrl } from './smtp-mailer.js';
import { checkDatabaseUrl } from './store/postgres/connect.js';
import { readTestSettings } from './test-settings.js';

/**
 * The daemon's flags and environment → Config: the only place the daemon reads the environment.
 * `main.ts` starts a daemon with what this returns.
 */
export interface DaemonOptions {
  port?: number;
  host?: string;
  data?: string;
  defaultTier?: string;
  /** The longest lifetime a secret key may ask for (`90d`, `24h`, seconds); else SVC_MAX_KEY_LIFETIME. */
  maxKeyLifetime?: string;
  publicUrl?: string;
  /** SMTP URL (else SVC_SMTP_URL); unset, mail is captured. */
  smtp?: string;
  /** Team mode's PostgreSQL URL (else SVC_DATABASE_URL): daemon/store/open.ts. */
  database?: string;
  /** Host names to answer besides loopback's (see http/host-guard.ts); SVC_ALLOWED_HOSTS when unset. */
  allowedHosts?: string[];
  /**
   * Background start (`svc daemon start` without --foreground): stdout is <data>/daemon.log, so the
   * banner must not carry a live invite code (whoever can read that file could sign up with it). The
   * banner shows WITHHELD_INVITE instead and the starting command mints the invite through the
   * operator API and prints it.
   */
  withholdInvite?: boolean;
  /** Compaction as delegation's role (else SVC_COMPACTION_ROLE); unset: off. */
  compactionRole?: string;
  /** `--movable-clock`: allow `svc dev clock` on a non-loopback bind (never in team mode). */
  movableClock?: boolean;
  /** Where log lines go (default stderr); tests capture them. */
  logOutput?: LineOutput;
}

export type Env = Record<string, string | undefined>;

/** Flags and environment → Config. The only place the daemon reads the environment. */
export function resolveConfig(options: DaemonOptions, env: Env = process.env): Config {
  const port = options.port ?? (env.SVC_PORT ? Number(env.SVC_PORT) : DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${port}: use 0-65535`);
  const tier = options.defaultTier ?? 'trial';
  if (!TIERS.includes(tier as Tier)) throw new Error(`invalid --default-tier ${tier}: use one of ${TIERS.join(', ')}`);
  const databaseUrl = options.database || env.SVC_DATABASE_URL || undefined;
  if (databaseUrl) checkDatabaseUrl(databaseUrl);
  const smtpUrl = options.smtp || env.SVC_SMTP_URL || undefined;
  if (smtpUrl) checkSmtpUrl(smtpUrl);
  const tests = readTestSettings(env);
  return defaultConfig({
    host: options.host ?? DEFAULT_HOST,
    port,
    dataDir: resolveDataDir(options.data, env),
    defaultTier: tier as Tier,
    ...maxKeyLifetimeOf(options.maxKeyLifetime ?? env.SVC_MAX_KEY_LIFETIME),
    ...publicUrlOf(options.publicUrl ?? env.SVC_PUBLIC_URL),
    trustProxy: trustProxyOf(env.SVC_TRUST_PROXY),
    allowedHosts: options.allowedHosts ?? splitList(env.SVC_ALLOWED_HOSTS),
    timeouts: {
      headersMs: positiveMs(env.SVC_HEADERS_TIMEOUT_MS, 'SVC_HEADERS_TIMEOUT_MS') ?? 5_000,
      requestMs: positiveMs(env.SVC_REQUEST_TIMEOUT_MS, 'SVC_REQUEST_TIMEOUT_MS') ?? 15_000,
    },
    // Test settings of a daemon process (the security suite), honoured only with their opt-in.
    ...(tests.scryptN ? { auth: { passwordHash: { ...DEFAULT_AUTH.passwordHash, N: tests.scryptN } } } : {}),
    ...(env.SVC_SCHEDULE_MISSED ? { scheduleMissed: scheduleMissedOf(env.SVC_SCHEDULE_MISSED) } : {}),
    ...(env.SVC_MCP_TOOL_CALLS_PER_MINUTE
      ? { mcpToolCallsPerMinute: perMinuteOf(env.SVC_MCP_TOOL_CALLS_PER_MINUTE) }
      : {}),
    ...oauthClientIdleOf(env.SVC_OAUTH_CLIENT_IDLE),
    ...(smtpUrl ? { smtpUrl } : {}),
    ...(env.SVC_AUDIT_RETENTION_DAYS !== undefined
      ? { auditRetentionDays: retentionDaysOf(env.SVC_AUDIT_RETENTION_DAYS) }
      : {}),
    ...compactionOf(options.compactionRole ?? env.SVC_COMPACTION_ROLE, env.SVC_COMPACTION_TIMEOUT_MS),
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(options.movableClock ? { movableClock: true } : {}),
  });
}

/** `--max-key-lifetime` / SVC_MAX_KEY_LIFETIME: a duration such as 90d; a bad one stops the start. */
function maxKeyLifetimeOf(text: string | undefined): { maxKeyLifetimeSeconds?: number } {
  if (text === undefined || text.trim() === '') return {};
  const seconds = parseDuration(text);
  if (!seconds)
    throw new Error(`invalid --max-key-lifetime ${text}: use a duration such as 90d, 24h or 3600 (seconds)`);
  return { maxKeyLifetimeSeconds: seconds };
}

/** SVC_OAUTH_CLIENT_IDLE: how long a registered OAuth client lives unused (a duration such as 30d). */
function oauthClientIdleOf(text: string | undefined): { oauthClientIdleSeconds?: number } {
  if (text === undefined || text.trim() === '') return {};
  const seconds = parseDuration(text);
  if (!seconds)
    throw new Error(`invalid SVC_OAUTH_CLIENT_IDLE ${text}: use a duration such as 30d, 12h or 3600 (seconds)`);
  return { oauthClientIdleSeconds: seconds };
}

/** `--compaction-role` / SVC_COMPACTION_ROLE (a role or an agent id) and SVC_COMPACTION_TIMEOUT_MS. */
function compactionOf(role: string | undefined, timeout: string | undefined): { compaction?: Config['compaction'] } {
  const name = role?.trim();
  if (!name) return {};
  if (name.length > 200) throw new Error('invalid --compaction-role: at most 200 characters');
  const timeoutMs = positiveMs(timeout, 'SVC_COMPACTION_TIMEOUT_MS');
  return { compaction: { role: name, ...(timeoutMs ? { timeoutMs } : {}) } };
}

export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function positiveMs(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 100)
    throw new Error(`invalid ${name} ${value}: use a whole number of milliseconds, at least 100`);
  return ms;
}

/** SVC_PUBLIC_URL: where users reach the deployment (behind a reverse proxy): links in e-mails point there. */
function publicUrlOf(value: string | undefined): { publicUrl?: string } {
  if (!value) return {};
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`invalid SVC_PUBLIC_URL ${value}: use an http(s) URL, e.g. https://svc.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`invalid SVC_PUBLIC_URL ${value}: use an http(s) URL, e.g. https://svc.example.com`);
  return { publicUrl: url.origin };
}

/**
 * SVC_TRUST_PROXY=1 behind a reverse proxy: the client address is the last X-Forwarded-For entry
 * (the one the proxy added; app.ts), so per-address limits count users, not the proxy. Off by
 * default: without a proxy that header is the caller's to forge.
 */
function trustProxyOf(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new Error(`invalid SVC_TRUST_PROXY ${value}: use 1 behind a reverse proxy, else leave it unset`);
}

function perMinuteOf(value: string): number {
  const n = Number(value);
  if (Number.isInteger(n) && n >= 0) return n;
  throw new Error(`invalid SVC_MCP_TOOL_CALLS_PER_MINUTE ${value}: use a whole number (0 turns the limit off)`);
}

function retentionDaysOf(value: string): number {
  const days = Number(value);
  if (!/^\d{1,6}$/.test(value.trim()) || !Number.isInteger(days))
    throw new Error(`invalid SVC_AUDIT_RETENTION_DAYS ${value}: use a whole number of days (0 keeps every entry)`);
  return days;
}

function scheduleMissedOf(value: string): 'latest' | 'skip' | 'all' {
  if (value === 'latest' || value === 'skip' || value === 'all') return value;
  throw new Error(`invalid SVC_SCHEDULE_MISSED ${value}: use latest, skip or all`);
}

/** Takes the data folder, binds the port and serves until stop() (signals are wired by runDaemon). */
