import { randomBytes } from 'node:crypto';
import { inject, type InjectOptions } from 'light-my-request';

/** light-my-request's options, with any method name: the tests send methods its types leave out (TRACE, PROPFIND). */
export type RequestOptions = Omit<InjectOptions, 'method'> & { method?: string };
import type Koa from 'koa';
import { createApp } from '../../daemon/app.js';
import { createAuthLimits, type AuthLimits } from '../../daemon/auth/limits.js';
import { defaultConfig, type ConfigOverrides } from '../../daemon/config.js';
import type { Deps } from '../../daemon/deps.js';
import { createIdGenerator } from '../../daemon/ids.js';
import { silentLogger, type Logger } from '../../daemon/logger.js';
import { createConfiguredMailer } from '../../daemon/configured-mailer.js';
import { cryptoRandom } from '../../daemon/random.js';
import { createMemoryStores, openFileStores, type StoreDeps } from '../../daemon/store/index.js';
import type { Stores } from '../../daemon/store/types.js';
import { createSealer } from '../../daemon/store/sealer.js';
import { createRuntimeHost } from '../../daemon/company/host.js';
import { openDaemonStorage } from '../../daemon/store/open.js';
import type { RuntimeHost } from '../../daemon/company/seam.js';
import { FakeClock } from './fake-clock.js';
import { movableClock } from '../../daemon/clock.js';
import { testPostgres } from './postgres.js';
import { tempDir } from './temp-dir.js';

/** Tests set a cheap password-hash cost themselves (SECURITY.md: never by default). */
export const CHEAP_AUTH = { passwordHash: { N: 2 ** 10, r: 8, p: 1, maxmem: 32 * 1024 * 1024 } };

export interface TestAppOptions {
  /** Auth costs default to CHEAP_AUTH here (cheap scrypt); pass config.auth to change them. */
  config?: ConfigOverrides;
  /** 'memory' (default) or 'file' (in a temp data folder). */
  storage?: 'memory' | 'file';
  dataDir?: string;
  clock?: FakeClock;
  log?: Logger;
  /** Company runtimes; default the real host over the test's data folder. */
  runtimes?: RuntimeHost;
  /** Opens the account stores instead of `storage` (e.g. on PostgreSQL, two apps as two daemons). */
  openStores?: (deps: StoreDeps) => Promise<Stores>;
  /** The deployment's secrets; default fresh ones (two apps as daemons of one deployment share them). */
  secrets?: Deps['secrets'];
  /**
   * Team mode: everything on this PostgreSQL database, opened as `svc daemon start --database`
   * opens it (openDaemonStorage: its secrets, account stores, limits, pairings and Company
   * runtimes). Call `close()` at the end: the pool keeps the process alive.
   */
  database?: string;
  /** `svc dev clock`: the app's clock is a movable one over the fake clock (deps.devClock). */
  devClock?: boolean;
  /** How the authorization server fetches client metadata documents (a test CA to trust, a shorter limit). */
  oauthFetch?: Deps['oauthFetch'];
  /** More middleware after the app's own (e.g. a test route behind the tenant middleware), added before the app is served. */
  extend?: (app: Koa, deps: Deps) => void;
}

export interface TestApp {
  app: Koa;
  deps: Deps;
  /** The app's one set of auth throttles (what createApp was given). */
  authLimits: AuthLimits;
  clock: FakeClock;
  request(options: RequestOptions): Promise<TestResponse>;
  get(url: string, headers?: Record<string, string>): Promise<TestResponse>;
  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse>;
  del(url: string, headers?: Record<string, string>): Promise<TestResponse>;
  operator: Record<string, string>;
  /** Closes the runtimes and stores (and team mode's pool). */
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
  text: string;
}

/**
 * The daemon in-process: createApp with a fake clock, test secrets, a quiet logger and memory (or
 * temp-file) stores; requests go through app.callback() with no port (light-my-request).
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const fake = options.clock ?? new FakeClock();
  const devClock = options.devClock ? movableClock(fake) : undefined;
  const clock = devClock ?? fake;
  const dataDir = options.dataDir ?? tempDir('svc-data');
  const config = defaultConfig({
    dataDir,
    publicUrl: 'http://127.0.0.1:7878',
    ...options.config,
    ...(options.database ? { databaseUrl: options.database } : {}),
    auth: { ...CHEAP_AUTH, ...options.config?.auth },
  });
  const random = cryptoRandom;
  const ids = createIdGenerator(clock, random);
  const log = options.log ?? silentLogger;
  const team = options.database ? await openDaemonStorage(config, { clock, ids, log }) : null;
  const secrets = team?.secrets ??
    options.secrets ?? {
      jwtSecret: randomBytes(32),
      operatorToken: `op_${randomBytes(24).toString('base64url')}`,
      mailKey: randomBytes(32),
      codeKey: randomBytes(32),
    };
  const storeDeps = { clock, ids, sealer: createSealer(secrets.mailKey), outboxMax: config.outboxMax };
  const stores = team
    ? team.stores
    : options.openStores
      ? await options.openStores(storeDeps)
      : options.storage === 'file'
        ? await openFileStores(dataDir, storeDeps)
        : await createMemoryStores(storeDeps);
  const runtimes =
    options.runtimes ??
    createRuntimeHost({
      config,
      clock,
      ids,
      log,
      storage: team?.runtimes ?? options.storage ?? 'memory',
      sealer: storeDeps.sealer,
      random,
    });
  const deps: Deps = {
    config,
    clock,
    random,
    ids,
    secrets,
    stores,
    log,
    runtimes,
    mailer: createConfiguredMailer(config.smtpUrl, stores.outbox, { clock, ids, log }),
    ...(team?.pairings ? { pairings: team.pairings } : {}),
    ...(team?.checkOperatorToken ? { checkOperatorToken: team.checkOperatorToken } : {}),
    ...(devClock ? { devClock } : {}),
    ...(options.oauthFetch ? { oauthFetch: options.oauthFetch } : {}),
  };
  const authLimits = createAuthLimits(deps);
  const app = createApp(deps, { authLimits });
  options.extend?.(app, deps);
  const handler = app.callback();

  const request = async (opts: RequestOptions): Promise<TestResponse> => {
    const res = await inject(handler, opts as InjectOptions);
    let body: unknown;
    try {
      body = res.payload ? JSON.parse(res.payload) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body, text: res.payload };
  };
  return {
    app,
    deps,
    authLimits,
    clock: fake,
    request,
    get: (url, headers) => request({ method: 'GET', url, headers }),
    post: (url, body, headers) =>
      request({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', ...headers },
        payload: body === undefined ? undefined : JSON.stringify(body),
      }),
    del: (url, headers) => request({ method: 'DELETE', url, headers }),
    operator: { authorization: `Bearer ${secrets.operatorToken}` },
    async close() {
      runtimes.drain?.();
      await runtimes.close();
      await stores.close();
      await team?.close();
    },
  };
}

/** Serves a test app on a loopback port, for clients that need a real socket (the CLI's undici client). */
export async function serveTestApp(t: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer(t.app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * The two ways a suite runs the in-process app: on the memory stores, and in team mode on a fresh
 * database of the run's throwaway PostgreSQL cluster when one can be started (else that mode is
 * left out, and the cluster helper has said why in one line).
 */
export function testAppModes(): Array<{ name: string; open: (options?: TestAppOptions) => Promise<TestApp> }> {
  const cluster = testPostgres();
  return [
    { name: 'memory store', open: (options = {}) => createTestApp(options) },
    ...(cluster
      ? [
          {
            name: 'team mode',
            open: async (options: TestAppOptions = {}) =>
              createTestApp({ ...options, database: await (await cluster()).createDatabase() }),
          },
        ]
      : []),
  ];
}
