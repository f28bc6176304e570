import { randomBytes } from 'node:crypto';
import { defaultConfig } from '../../daemon/config.js';
import { createIdGenerator } from '../../daemon/ids.js';
import { silentLogger } from '../../daemon/logger.js';
import { cryptoRandom } from '../../daemon/random.js';
import { createRuntimeHost } from '../../daemon/company/host.js';
import type { OpenedRuntime } from '../../daemon/company/open-company.js';
import type { DuePolicy } from '../../daemon/company/schedules/due-ticks.js';
import type { SchedulerTimer } from '../../daemon/company/schedules/scheduler.js';
import { createSealer, type Sealer } from '../../daemon/store/sealer.js';
import { createMatcherEngine } from '../../daemon/company/detectors/matcher-engine.js';
import { createBoundedRegex } from '../../daemon/company/detectors/bounded-regex.js';
import { createUser, type TestUser } from './accounts.js';
import { FakeClock } from './fake-clock.js';
import { createCompany } from './keys.js';
import { tempDir } from './temp-dir.js';
import { createTestApp, type TestApp, type TestResponse } from './test-app.js';

/** A minute timer that never fires by itself: the test calls `fire()` after moving the fake clock. */
export interface FakeTimer extends SchedulerTimer {
  /** Delays asked for, in order (the scheduler asks for "until just after the next minute"). */
  delays: number[];
  pending(): number;
  /** Runs every pending callback once. */
  fire(): void;
}

export function createFakeTimer(): FakeTimer {
  const pending = new Map<number, () => void>();
  let seq = 0;
  const delays: number[] = [];
  return {
    delays,
    set(fn, ms) {
      delays.push(ms);
      pending.set(++seq, fn);
      return seq;
    },
    clear: (h) => void pending.delete(h as number),
    pending: () => pending.size,
    fire() {
      const due = [...pending.values()];
      pending.clear();
      due.forEach((fn) => {
        fn();
      });
    },
  };
}

export interface EmitterTestApp {
  t: TestApp;
  clock: FakeClock;
  timer: FakeTimer;
  user: TestUser;
  company: { id: string; name: string };
  /** Bearer + X-Company: what every runtime route needs. */
  headers: Record<string, string>;
  runtime: OpenedRuntime;
  get(url: string): Promise<TestResponse>;
  post(url: string, body?: unknown): Promise<TestResponse>;
  /** One minute walk of the scheduler, as the minute timer would run it. */
  walk(): ReturnType<OpenedRuntime['scheduler']['walk']>;
}

export interface EmitterTestOptions {
  storage?: 'memory' | 'file';
  dataDir?: string;
  clock?: FakeClock;
  sealer?: Sealer;
  policy?: Partial<DuePolicy>;
}

/**
 * The whole daemon in-process with the scheduler, detector, channel and question emitters on a
 * fake clock and a fake minute timer: a user, a Company made through POST /api/companies (so its defaults are seeded), and headers
 * with X-Company for the runtime routes.
 */
export async function createEmitterTestApp(options: EmitterTestOptions = {}): Promise<EmitterTestApp> {
  const clock = options.clock ?? new FakeClock();
  const dataDir = options.dataDir ?? tempDir('svc-emitters');
  const timer = createFakeTimer();
  const config = defaultConfig({ dataDir });
  const runtimes = createRuntimeHost({
    config,
    clock,
    ids: createIdGenerator(clock, cryptoRandom),
    log: silentLogger,
    storage: options.storage ?? 'memory',
    sealer: options.sealer ?? createSealer(randomBytes(32)),
    // Matching bounded at 5 s here: these tests check the wiring, and a loaded test machine must not
    // turn a match into a timeout (the bound itself is tested in tests/daemon/company/detectors/).
    runtime: {
      schedulerTimer: timer,
      schedulePolicy: options.policy,
      matcher: createMatcherEngine({ clock, regex: createBoundedRegex() }),
    },
  });
  const t = await createTestApp({ clock, dataDir, storage: options.storage, runtimes });
  const user = await createUser(t, { tier: 'company' });
  const company = await createCompany(t, user, 'Acme');
  const runtime = (await runtimes.open({
    id: company.id,
    name: company.name,
    owner_id: user.user.id,
  })) as OpenedRuntime;
  const headers = { ...user.auth, 'x-company': company.id };
  return {
    t,
    clock,
    timer,
    user,
    company,
    headers,
    runtime,
    get: (url) => t.get(url, headers),
    post: (url, body) => t.post(url, body, headers),
    walk: () => runtime.scheduler.walk(),
  };
}
