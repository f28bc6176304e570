import type { Clock, MovableClock } from './clock.js';
import type { Config } from './config.js';
import type { Secrets } from './data-dir.js';
import type { IdGenerator } from './ids.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mailer.js';
import type { Random } from './random.js';
import type { Stores } from './store/types.js';
import type { RuntimeHost } from './company/index.js';
import type { PairingStore } from './store/pairing-store.js';
import type { OperatorTokenCheck } from './http/operator-guard.js';

/** Everything createApp needs, injected: main.ts builds the real set, tests a fake one. */
export interface Deps {
  config: Config;
  clock: Clock;
  random: Random;
  ids: IdGenerator;
  secrets: Secrets;
  mailer: Mailer;
  stores: Stores;
  /** The Company runtimes behind the gateway (daemon/company/seam.ts). */
  runtimes: RuntimeHost;
  log: Logger;
  /** Pending `svc login --web` pairings; in memory when absent (daemon/store/pairing-store.ts). */
  pairings?: PairingStore;
  /** Team mode: the operator tokens registered in the database; absent, `secrets.operatorToken` is the only one. */
  checkOperatorToken?: OperatorTokenCheck;
  /** `svc dev clock` (daemon/dev/dev-clock.ts): `clock` itself, movable; absent where moving it is refused. */
  devClock?: MovableClock;
  /**
   * Tests only: how the authorization server fetches client ID metadata documents (a CA of the
   * test's own to trust besides the system's, a shorter time limit). Absent: the system's CAs, 5 s.
   */
  oauthFetch?: { extraCaCerts?: string[]; timeoutMs?: number };
}
