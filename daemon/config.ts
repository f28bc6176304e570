import type { Tier } from '../shared/wire.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../shared/paths.js';

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
  limits: {
    /** SECURITY.md: 64 KiB on auth routes. */
    authBodyBytes: number;
    /** CONTRACT §4: 1 MiB elsewhere. */
    bodyBytes: number;
  };
  /** Read the client address from X-Forwarded-For (off: a local daemon has no proxy in front). */
  trustProxy: boolean;
  /** Captured mail kept by the outbox; older messages are dropped past this. */
  outboxMax: number;
}

export function defaultConfig(overrides: Partial<Config> = {}): Config {
  const host = overrides.host ?? DEFAULT_HOST;
  const port = overrides.port ?? DEFAULT_PORT;
  return {
    host,
    port,
    dataDir: '',
    publicUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    defaultTier: 'trial',
    limits: { authBodyBytes: 64 * 1024, bodyBytes: 1024 * 1024 },
    trustProxy: false,
    outboxMax: 1000,
    ...overrides,
  };
}
