import type { Deps } from '../deps.js';
import type { NewAuditEntry } from '../store/audit-types.js';
import { GRANT_BINDING_KIND, type OAuthRecord } from '../store/oauth-types.js';
import type { SecretKeyRecord } from '../store/tenancy-types.js';

/** How often the check looks: expiry is shown to the minute. */
const CHECK_EVERY_MS = 60_000;
/**
 * How far back a check looks for expiries it has not recorded: a daemon stopped for longer records
 * the keys that expired in its last week only (their refusals, if they were used, are in the trail).
 */
const LOOKBACK_MS = 7 * 86_400_000;
/** Each expiry's claim outlives the lookback, so no daemon can record an expiry a second time. */
const CLAIM = [{ limit: 1, windowMs: 2 * LOOKBACK_MS }];

/**
 * Records `key.expired` when a secret key's `expires_at` passes, and `oauth.grant_expired` when an
 * OAuth grant's lifetime ends, used or not: an owner reading the trail sees when a key or a connected
 * app stopped working, not only its next refused call. Checked at start and every
 * minute (and by `check()`, which tests call after moving the fake clock). Each expiry is claimed
 * once in the throttle store before it is written — one atomic step there, shared by every daemon
 * of a deployment — so several daemons checking the same minute record it once.
 */
export function startExpiryCheck(deps: Pick<Deps, 'clock' | 'stores' | 'log'>): ExpiryCheck {
  let running: Promise<number> | null = null;
  const check = () =>
    (running ??= (async () => {
      const now = deps.clock.now();
      let recorded = 0;
      try {
        const after = new Date(now - LOOKBACK_MS).toISOString();
        const until = new Date(now).toISOString();
        for (const key of await deps.stores.keys.listKeysExpiring(after, until))
          if (await recordOnce(deps, keyExpired(key), now)) recorded++;
        for (const grant of await deps.stores.oauth.listExpiring(GRANT_BINDING_KIND, after, until)) {
          const expiry = grantExpired(grant);
          // A grant to a Company since deleted stopped working then: it has no end left to record.
          if (!(await deps.stores.companies.findById(expiry.company_id ?? ''))) continue;
          if (await recordOnce(deps, expiry, now)) recorded++;
        }
      } catch (err) {
        deps.log.warn('the key and grant expiry check failed; it runs again within the minute', { err });
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

/** What an expiry adds to the trail: the rest of the entry is the same for keys and grants. */
interface Expiry extends Pick<NewAuditEntry, 'user_id' | 'company_id' | 'action' | 'target' | 'details'> {
  /** Its name in the throttle store (the keys' as before grants were checked too, so none is recorded twice). */
  claim: string;
}

const keyExpired = (key: SecretKeyRecord): Expiry => ({
  claim: `audit_key_expired|${key.id}`,
  user_id: key.user_id,
  company_id: key.company_id,
  action: 'key.expired',
  target: key.id,
  details: { name: key.name, expires_at: key.expires_at },
});

/** The fields of a grant binding's payload (daemon/oauth/grant-binding.ts) an expiry names. */
interface BindingFacts {
  grantId: string;
  userId: string;
  companyId: string;
  clientId: string;
}

function grantExpired(record: OAuthRecord): Expiry {
  const binding = record.payload as unknown as BindingFacts;
  return {
    claim: `audit_grant_expired|${binding.grantId}`,
    user_id: binding.userId,
    company_id: binding.companyId,
    action: 'oauth.grant_expired',
    target: binding.grantId,
    details: { client_id: binding.clientId, expires_at: record.expires_at },
  };
}

async function recordOnce(
  deps: Pick<Deps, 'clock' | 'stores'>,
  { claim, ...expiry }: Expiry,
  now: number,
): Promise<boolean> {
  if ((await deps.stores.limits.hit(claim, CLAIM, now)) !== null) return false;
  await deps.stores.audit.append({
    // Recorded when seen (within the minute): `at` stays in commit order, as retention expects.
    at: new Date(now).toISOString(),
    actor: { type: 'operator', user_id: null, key_id: null, client_id: null, grant_id: null },
    ...expiry,
    outcome: 'succeeded',
    reason: null,
    request_id: null,
    client_address: null,
    user_agent: null,
  });
  return true;
}

export interface ExpiryCheck {
  stop(): void;
  /** Checks now (or waits for the check under way); resolves to how many expiries it recorded. */
  check(): Promise<number>;
}
