import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { signUpVerified as signUpOverHttp } from '../proof/lib/accounts.js';
import { call, operatorHeaders } from '../proof/lib/client.js';
import { startProofDaemon, type ProofDaemon } from '../proof/lib/daemon.js';
import type { TestApp, TestResponse } from '../helpers/test-app.js';
import { tempDir } from '../helpers/temp-dir.js';
import { testPostgres } from '../helpers/postgres.js';
import { testSettingsEnv } from '../helpers/daemon-process.js';

/**
 * The security suite's daemon: a real process over loopback (SECURITY.md attack cases), with the
 * two test settings a process can take, with their opt-in — a cheap scrypt cost (SVC_TEST_SCRYPT_N)
 * and a clock offset file (SVC_TEST_CLOCK_FILE) to step past expiries and throttle windows. `app` speaks the
 * in-process TestApp's few methods over HTTP, so the helpers that drive passkeys, SIWE and TOTP
 * (tests/helpers) run unchanged against the process.
 */
export interface Remote {
  daemon: ProofDaemon;
  dataDir: string;
  app: TestApp;
  /** Moves the daemon's clock forward (and this side's `app.clock`). */
  advance(ms: number): void;
  signUpVerified(email: string, tier?: string): Promise<{ email: string; token: string; auth: Record<string, string> }>;
  /** The deployment's JWT signing secret (to forge tokens with it): the data folder's, or the database's in team mode. */
  jwtSecret(): Promise<Buffer>;
  stop(): Promise<void>;
}

/**
 * The stores the suite runs on: the JSON data folder, and team mode on a fresh PostgreSQL database
 * where one is installed (every attack case holds on both; the races meet row locks there).
 */
export function securityModes(): Array<{ name: string; start: () => Promise<Remote> }> {
  const cluster = testPostgres();
  return [
    { name: 'JSON store', start: () => startRemote() },
    ...(cluster
      ? [{ name: 'team mode', start: async () => startRemote({ database: await (await cluster()).createDatabase() }) }]
      : []),
  ];
}

export async function startRemote(options: { database?: string } = {}): Promise<Remote> {
  const dataDir = tempDir('svc-security');
  const clockFile = join(tempDir('svc-security-clock'), 'offset');
  writeFileSync(clockFile, '0');
  let offset = 0;
  const daemon = await startProofDaemon(
    dataDir,
    testSettingsEnv({ clockFile }),
    options.database ? ['--database', options.database] : [],
  );
  const advance = (ms: number) => {
    offset += ms;
    writeFileSync(clockFile, String(offset));
  };
  const send = async (
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TestResponse> => {
    const a = await call(daemon.url, url, { method, headers, ...(body !== undefined ? { body } : {}) });
    return { status: a.status, headers: Object.fromEntries(a.headers ?? []), body: a.body, text: a.text };
  };
  const app = {
    clock: { now: () => Date.now() + offset, advance },
    operator: operatorHeaders(dataDir),
    get: (url: string, headers?: Record<string, string>) => send('GET', url, undefined, headers),
    post: (url: string, body?: unknown, headers?: Record<string, string>) => send('POST', url, body ?? {}, headers),
    del: (url: string, headers?: Record<string, string>) => send('DELETE', url, undefined, headers),
  } as unknown as TestApp;
  return {
    daemon,
    dataDir,
    app,
    advance,
    signUpVerified: (email, tier) => signUpOverHttp(daemon.url, dataDir, email, tier),
    async jwtSecret() {
      if (!options.database) return Buffer.from(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim(), 'hex');
      const client = new pg.Client({ connectionString: options.database });
      await client.connect();
      try {
        const { rows } = await client.query<{ value: string }>(
          "SELECT value FROM svc_secrets WHERE name = 'jwt_secret'",
        );
        return Buffer.from(rows[0]!.value, 'hex');
      } finally {
        await client.end();
      }
    },
    stop: () => daemon.stop(),
  };
}

const mailTo = async (r: Remote, to: string) =>
  ((await r.app.get(`/api/dev/mail?to=${encodeURIComponent(to)}`, r.app.operator)).body?.mail ?? []) as Array<{
    code: string | null;
    link: string | null;
  }>;

/** How many mails to `to` are captured so far: pass it to `lastMail` to wait for the next one. */
export const mailCount = async (r: Remote, to: string): Promise<number> => (await mailTo(r, to)).length;

/**
 * The newest captured mail to `to` (code and link), from the operator surface, once more than
 * `seen` have arrived. A mail is written in the background after its request is answered, so a
 * test that asks for another one passes the count from before: else it may read the previous mail
 * (in team mode the write is a database round trip, and the window wider).
 */
export async function lastMail(r: Remote, to: string, seen = 0): Promise<{ code: string | null; link: string | null }> {
  for (let i = 0; i < 400; i++) {
    const mail = await mailTo(r, to);
    if (mail.length > seen) return mail.at(-1)!;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`no new mail to ${to} (had ${seen})`);
}

/** Six minutes: past every per-address throttle window (5 min), so each case starts unthrottled. */
export const PAST_THROTTLES = 6 * 60_000;

/** Exactly one 2xx among answers (attack case 1). */
export const successes = (answers: TestResponse[]) => answers.filter((a) => a.status >= 200 && a.status < 300).length;

/** The answers' statuses and codes, counted: what an assertion on `successes` prints when it fails. */
export const statusesOf = (answers: TestResponse[]): string =>
  JSON.stringify(
    answers.reduce<Record<string, number>>((n, a) => {
      const key = `${a.status} ${a.body?.code ?? ''}`.trim();
      n[key] = (n[key] ?? 0) + 1;
      return n;
    }, {}),
  );
