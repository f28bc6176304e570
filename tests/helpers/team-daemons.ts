import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, expectStatus, type Answer, type CallOptions } from '../proof/lib/client.js';
import { startProofDaemon, type ProofDaemon } from '../proof/lib/daemon.js';
import { testSettingsEnv } from './daemon-process.js';
import { testPostgres } from './postgres.js';
import { tempDir } from './temp-dir.js';

/**
 * Team mode end to end: real daemon processes (`svc daemon start --foreground --port 0`) on one
 * database of the throwaway cluster (tests/helpers/postgres.ts), each with its own data folder,
 * sharing one clock offset file so a test can step all of them past a schedule tick.
 */
export interface TeamDaemon extends ProofDaemon {
  dataDir: string;
  /** A request to this daemon (answers even when it is down: status 0). */
  call(path: string, options?: CallOptions): Promise<Answer>;
}

export interface Team {
  databaseUrl: string;
  /** Starts one more daemon on the database (a data folder of its own unless `dataDir` is given). */
  start(dataDir?: string): Promise<TeamDaemon>;
  /** Moves every daemon's clock forward. */
  advance(ms: number): void;
}

/** Null where PostgreSQL is not installed (testPostgres has said so in one line). */
export async function openTeam(): Promise<Team | null> {
  const cluster = testPostgres();
  if (!cluster) return null;
  const databaseUrl = await (await cluster()).createDatabase();
  const clockFile = join(tempDir('svc-team-clock'), 'offset');
  let offset = 0;
  writeFileSync(clockFile, '0');
  let started = 0;
  return {
    databaseUrl,
    async start(dataDir = tempDir('svc-team-data')) {
      const env = testSettingsEnv({ clockFile });
      // Half the daemons get the flag, half the variable: both ways into team mode are exercised.
      const daemon =
        started++ % 2 === 0
          ? await startProofDaemon(dataDir, env, ['--database', databaseUrl])
          : await startProofDaemon(dataDir, { ...env, SVC_DATABASE_URL: databaseUrl });
      return { ...daemon, dataDir, call: (path, options) => call(daemon.url, path, options) };
    },
    advance(ms) {
      offset += ms;
      writeFileSync(clockFile, String(offset));
    },
  };
}

/** Polls `probe` until it returns a value other than undefined; the bound is a failure guard, not a timing claim. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, boundMs = 30_000): Promise<T> {
  const until = Date.now() + boundMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${what}: not seen within ${boundMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every event of the Company through `daemon`, paging with since_id `limit` at a time. */
export async function pageAll(daemon: TeamDaemon, headers: Record<string, string>, limit = 7, type?: string) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const q = new URLSearchParams({ limit: String(limit), ...(cursor ? { since_id: cursor } : {}) });
    if (type) q.set('event_type', type);
    const page = expectStatus(await daemon.call(`/api/events?${q}`, { headers }), 200, 'page').body;
    ids.push(...page.events.map((e: { id: string }) => e.id));
    cursor = page.events.at(-1)?.id ?? cursor;
    if (!page.next_since_id) return ids;
  }
}
