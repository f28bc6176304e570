import type { Deps } from '../deps.js';

export const DEFAULT_RETENTION_DAYS = 400;
const DAY_MS = 86_400_000;
/** How often the sweep looks: retention is counted in days, so an hour late is no one's loss. */
const SWEEP_EVERY_MS = 3_600_000;

/**
 * Removes entries older than the retention (`SVC_AUDIT_RETENTION_DAYS`, default 400 days) at start
 * and every hour. Each sweep first appends to every stream it shortens a checkpoint entry naming
 * the last removed seq and hash, so `verify` still holds.
 */
export function startAuditRetention(deps: Pick<Deps, 'config' | 'clock' | 'stores' | 'log'>): AuditRetention {
  const days = deps.config.auditRetentionDays ?? DEFAULT_RETENTION_DAYS;
  if (days === 0) return { stop: () => {}, sweep: async () => {} };
  let running: Promise<void> | null = null;
  const sweep = () =>
    (running ??= (async () => {
      const now = deps.clock.now();
      try {
        const removed = await deps.stores.audit.sweep(
          new Date(now - days * DAY_MS).toISOString(),
          new Date(now).toISOString(),
        );
        if (removed) deps.log.info('audit entries past their retention removed', { removed, days });
      } catch (err) {
        deps.log.warn('the audit retention sweep failed; it runs again within the hour', { err });
      } finally {
        running = null;
      }
    })());
  void sweep();
  const timer = setInterval(() => void sweep(), SWEEP_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), sweep };
}

export interface AuditRetention {
  stop(): void;
  /** Sweeps now (or waits for the sweep under way). */
  sweep(): Promise<void>;
}
