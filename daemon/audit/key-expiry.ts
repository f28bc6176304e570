import type { Deps } from '../deps.js';
import type { SecretKeyRecord } from '../store/tenancy-types.js';

/** How often the check looks: expiry is shown to the minute. */
const CHECK_EVERY_MS = 60_000;
/**
 * How far back a check looks for expiries it has not recorded: a daemon stopped for longer records
 * the keys that expired in its last week only (their refusals, if they were used, are in the trail).
 */
const LOOKBACK_MS = 7 * 86_400_000;
/** Each key's claim outlives the lookback, so no daemon can record an expiry a second time. */
const CLAIM = [{ limit: 1, windowMs: 2 * LOOKBACK_MS }];

/**
 * Records `key.expired` when a secret key's `expires_at` passes, used or not: an owner reading the
 * trail sees when a key stopped working, not only its next refused call. Checked at start and every
 * minute (and by `check()`, which tests call after moving the fake clock). Each expiry is claimed
 * once in the throttle store before it is written — one atomic step there, shared by every daemon
 * of a deployment — so several daemons checking the same minute record it once.
 */
export function startKeyExpiryCheck(deps: Pick<Deps, 'clock' | 'stores' | 'log'>): KeyExpiryCheck {
  let running: Promise<number> | null = null;
  const check = () =>
    (running ??= (async () => {
      const now = deps.clock.now();
      let recorded = 0;
      try {
        const expired = await deps.stores.keys.listKeysExpiring(
          new Date(now - LOOKBACK_MS).toISOString(),
          new Date(now).toISOString(),
        );
        for (const key of expired) if (await recordOnce(deps, key, now)) recorded++;
      } catch (err) {
        deps.log.warn('the key expiry check failed; it runs again within the minute', { err });
      } finally {
        running = null;
      }
      return recorded;
    })());
  void check();
  const timer = setInterval(() => void check(), CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), check };
}

async function recordOnce(deps: Pick<Deps, 'clock' | 'stores'>, key: SecretKeyRecord, now: number): Promise<boolean> {
  if ((await deps.stores.limits.hit(`audit_key_expired|${key.id}`, CLAIM, now)) !== null) return false;
  await deps.stores.audit.append({
    // Recorded when seen (within the minute): `at` stays in commit order, as retention expects.
    at: new Date(now).toISOString(),
    actor: { type: 'operator', user_id: null, key_id: null, client_id: null, grant_id: null },
    user_id: key.user_id,
    company_id: key.company_id,
    action: 'key.expired',
    target: key.id,
    outcome: 'succeeded',
    reason: null,
    request_id: null,
    client_address: null,
    user_agent: null,
    details: { name: key.name, expires_at: key.expires_at },
  });
  return true;
}

export interface KeyExpiryCheck {
  stop(): void;
  /** Checks now (or waits for the check under way); resolves to how many expiries it recorded. */
  check(): Promise<number>;
}
