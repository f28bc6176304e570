import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { VERSION } from '../shared/version.js';
import { WITHHELD_INVITE } from '../shared/wire.js';
import { createApp, type AppParts } from './app.js';
import { formatBanner } from './banner.js';
import { startAuditRetention } from './audit/retention.js';
import { startExpiryCheck } from './audit/key-expiry.js';
import { resolveConfig, splitList, type DaemonOptions, type Env } from './daemon-options.js';
import { offsetClock, systemClock } from './clock.js';
import { ensureDataDir } from './data-dir.js';
import { openDaemonStorage, type DaemonStorage } from './store/open.js';
import type { Deps } from './deps.js';
export { resolveConfig, splitList, type DaemonOptions } from './daemon-options.js';
import { createInvite } from './dev/invites.js';
import { openDevClock } from './dev/dev-clock.js';
import { createIdGenerator } from './ids.js';
import { acquireLock } from './lock.js';
import { createDaemonLogger } from './logger.js';
import { createConfiguredMailer } from './configured-mailer.js';
import { cryptoRandom } from './random.js';
import { closeGracefully, listen, serverTimeouts, SHUTDOWN_GRACE_MS } from './server.js';
import { createSealer } from './store/sealer.js';
import { createRuntimeHost } from './company/index.js';
import { removeLeftoverTempFiles } from './temp-sweep.js';
import { readTestSettings } from './test-settings.js';
import { configureHashPool } from './auth/passwords.js';

export interface RunningDaemon {
  url: string;
  server: Server;
  deps: Deps;
  /** The test settings honoured (SVC_ALLOW_TEST_SETTINGS=1); empty on any daemon that serves users. */
  testSettings: string[];
  /** Stops accepting, waits for in-flight requests, flushes the stores, releases the lock. */
  stop(): Promise<void>;
}

export async function startDaemon(
  options: DaemonOptions,
  env: Env = process.env,
  parts: Pick<AppParts, 'withoutAuditTrail'> = {},
): Promise<RunningDaemon> {
  let config = resolveConfig(options, env);
  ensureDataDir(config.dataDir);
  if (config.hashPool) configureHashPool(config.hashPool);
  const lock = acquireLock(config.dataDir, VERSION);
  let storage: DaemonStorage | undefined;
  try {
    // resolveConfig has refused test settings without their opt-in already.
    const tests = readTestSettings(env);
    const base = tests.clockFile ? offsetClock(tests.clockFile, (f) => readFileSync(f, 'utf8')) : systemClock;
    // `svc dev clock`: a local daemon's clock is movable, starting from the offset it was left at.
    const devClock = openDevClock(config, base);
    const clock = devClock ?? base;
    const random = cryptoRandom;
    const ids = createIdGenerator(clock, random);
    const log = createDaemonLogger(options.logOutput);
    if (tests.names.length)
      log.warn('TEST SETTINGS IN USE: this daemon must not serve real users', { set: tests.names });
    const leftovers = removeLeftoverTempFiles(config.dataDir);
    if (leftovers.length) log.info('removed unfinished temp files of an earlier run', { count: leftovers.length });
    storage = await openDaemonStorage(config, { clock, ids, log });
    const { secrets, stores, pairings, checkOperatorToken } = storage;
    if (storage.team) log.info('team mode: everything is stored in the database', { database: storage.label });
    const mailer = createConfiguredMailer(config.smtpUrl, stores.outbox, { clock, ids, log });

    const server = createServer(serverTimeouts(config));
    const port = await listen(server, config.host, config.port);
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    // A port picked at start changes the default public URL, never one given by flag or environment.
    const publicUrlGiven = Boolean(options.publicUrl ?? env.SVC_PUBLIC_URL);
    if (config.port !== port) config = { ...config, port, ...(publicUrlGiven ? {} : { publicUrl: url }) };
    const sealer = createSealer(secrets.mailKey);
    const runtimes = createRuntimeHost({ config, clock, ids, log, storage: storage.runtimes, sealer, random });
    const deps: Deps = {
      config,
      clock,
      random,
      ids,
      secrets,
      mailer,
      stores,
      log,
      runtimes,
      ...(pairings ? { pairings } : {}),
      ...(checkOperatorToken ? { checkOperatorToken } : {}),
      ...(devClock ? { devClock } : {}),
    };
    server.on('request', createApp(deps, parts).callback());
    lock.update(url);
    // After the handler is attached: requests arriving meanwhile are served (a runtime they need
    // is opened once, shared with this loop).
    await openEveryRuntime(stores, runtimes, log);
    // Team mode: a Company created through another daemon gets its scheduler here too within a
    // minute, so its schedules keep firing (once: the tick cursors decide) if that daemon stops.
    const rescan = storage.team ? setInterval(() => void openEveryRuntime(stores, runtimes, log), 60_000) : null;
    rescan?.unref();
    const auditRetention = startAuditRetention(deps);
    const expiryCheck = startExpiryCheck(deps);

    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        if (rescan) clearInterval(rescan);
        auditRetention.stop();
        expiryCheck.stop();
        runtimes.drain?.();
        await closeGracefully(server, SHUTDOWN_GRACE_MS);
        await runtimes.close();
        await stores.close();
        await storage!.close();
        mailer.close?.();
        lock.release();
        log.flush();
      })());
    return { url, server, deps, testSettings: tests.names, stop };
  } catch (err) {
    await storage?.close().catch(() => {});
    lock.release();
    throw err;
  }
}

/** `svc daemon start --foreground`: start, print the banner (banner.ts), stop cleanly on SIGTERM/SIGINT. */
export async function runDaemon(
  options: DaemonOptions,
  out: NodeJS.WritableStream = process.stdout,
  json = false,
): Promise<void> {
  const daemon = await startDaemon(options);
  const invite = options.withholdInvite ? WITHHELD_INVITE : await createInvite(daemon.deps);
  // Handlers first, banner second: a supervisor may send SIGTERM the moment it reads the
  // first line, and before process.on() the default action would kill us without a clean stop.
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      daemon.deps.log.warn(`second ${signal}: exiting without waiting`);
      process.exit(1);
    }
    daemon.deps.log.info(`${signal}: finishing in-flight requests, then exiting`);
    daemon.stop().then(
      () => process.exit(0),
      (err) => {
        daemon.deps.log.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  out.write(formatBanner(daemon, invite, json));
}

/**
 * Schedules must fire for every Company, not only those someone happened to call since the start:
 * each runtime is opened now (its scheduler starts with it). One that fails to open is logged and
 * retried on its first request, and never stops the daemon from serving the others.
 */
async function openEveryRuntime(stores: Deps['stores'], runtimes: Deps['runtimes'], log: Deps['log']): Promise<void> {
  for (const c of await stores.companies.list()) {
    try {
      await runtimes.open({ id: c.id, name: c.name, owner_id: c.owner_id });
    } catch (err) {
      log.error('could not open a Company runtime at start', {
        company_id: c.id,
        err: String((err as Error)?.message ?? err),
      });
    }
  }
}

// `node dist/daemon/main.js [--port N] [--host H] [--data DIR]` works without the CLI too.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  runDaemon({
    port: flag('port') !== undefined ? Number(flag('port')) : undefined,
    host: flag('host'),
    data: flag('data'),
    defaultTier: flag('default-tier'),
    smtp: flag('smtp'),
    database: flag('database'),
    compactionRole: flag('compaction-role'),
    allowedHosts: flag('allowed-hosts') === undefined ? undefined : splitList(flag('allowed-hosts')),
  }).catch((err) => {
    process.stderr.write(`svc daemon: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
