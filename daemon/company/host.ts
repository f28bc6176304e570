import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { IdGenerator } from '../ids.js';
import type { Logger } from '../logger.js';
import { companyDataDir, type CompanyRef, type RuntimeHost } from './seam.js';
import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cryptoRandom, type Random } from '../random.js';
import { createSealer, type Sealer } from '../store/sealer.js';
import { openCompanyRuntime, type OpenedRuntime, type RuntimeOptions } from './open-company.js';
import { discardRuntimeStorage, type RuntimeStorage } from '../store/runtime-storage.js';
import { ErrorCode } from '../../shared/errors.js';
import { missing } from '../domain-error.js';

export interface RuntimeHostOptions {
  config: Config;
  clock: Clock;
  ids: IdGenerator;
  log: Logger;
  /**
   * 'file' keeps each Company's runtime under its data folder; 'memory' keeps nothing (tests);
   * team mode's PostgreSQL storage keeps every Company in the shared tables (runtime-storage.ts).
   */
  storage?: RuntimeStorage;
  /** Options passed to every runtime: emitters, matcher, tools, timers (tests: fakes) and compaction. */
  runtime?: Pick<
    RuntimeOptions,
    'emitters' | 'matcher' | 'tools' | 'maxDepth' | 'schedulerTimer' | 'schedulePolicy' | 'retryTimer' | 'compaction'
  >;
  /**
   * Seals webhook channel secrets (main.ts: the daemon's sealing key). Without one, a key made for
   * this process only: fine for tests, and channel secrets then do not survive a restart.
   */
  sealer?: Sealer;
  random?: Random;
}

/**
 * The Company runtimes of this daemon. Each is opened on first use, once: concurrent first
 * requests share the same opening, so two runtimes never write the same folder.
 */
export function createRuntimeHost(options: RuntimeHostOptions): RuntimeHost & { opened(): OpenedRuntime[] } {
  const storage = options.storage ?? 'file';
  const opening = new Map<string, Promise<OpenedRuntime>>();
  const sealer = options.sealer ?? createSealer(randomBytes(32));
  const onProblem = (message: string, fields: Record<string, unknown>) => options.log.warn(message, fields);

  const openOne = async (company: CompanyRef): Promise<OpenedRuntime> => {
    const dir = companyDataDir(options.config.dataDir, company.id);
    if (storage === 'file') mkdirSync(dir, { recursive: true, mode: 0o700 });
    const runtime = await openCompanyRuntime({
      company,
      dir,
      storage,
      clock: options.clock,
      ids: options.ids,
      sealer,
      random: options.random ?? cryptoRandom,
      onProblem,
      schedulePolicy: options.config.scheduleMissed ? { missed: options.config.scheduleMissed } : undefined,
      compaction: options.config.compaction,
      ...options.runtime,
    });
    for (const problem of runtime.recovery) options.log.warn('event log recovery', { company_id: company.id, problem });
    for (const note of runtime.storeNotes) options.log.info('runtime store', { company_id: company.id, note });
    return runtime;
  };

  const opened: OpenedRuntime[] = [];
  // Deleted Companies: a request that passed the Company check just before the delete must not
  // open the runtime again (on a data folder, that would make its folder anew, empty).
  const discarded = new Set<string>();
  return {
    open(company) {
      if (discarded.has(company.id))
        return Promise.reject(missing(`Company ${company.id} was deleted.`, ErrorCode.companyNotFound));
      let runtime = opening.get(company.id);
      if (!runtime) {
        runtime = openOne(company).then((r) => (opened.push(r), r));
        // A failed open is not cached: the next request tries again.
        runtime.catch(() => opening.delete(company.id));
        opening.set(company.id, runtime);
      }
      return runtime;
    },
    async discard(companyId) {
      discarded.add(companyId);
      const pending = opening.get(companyId);
      opening.delete(companyId);
      const runtime = pending && (await pending.catch(() => undefined));
      if (runtime) {
        opened.splice(opened.indexOf(runtime), 1);
        await runtime.close();
      }
      await discardRuntimeStorage(storage, companyId, companyDataDir(options.config.dataDir, companyId));
    },
    async close() {
      await Promise.allSettled([...opening.values()]);
      await Promise.all(opened.map((r) => r.close()));
    },
    drain() {
      for (const r of opened) r.services.events.releaseWaiters();
    },
    async catchUp() {
      let fired = 0;
      for (const r of opened) {
        fired += (await r.scheduler.walk()).fired.length;
        await r.retries.walk();
      }
      return fired;
    },
    opened: () => [...opened],
  };
}
