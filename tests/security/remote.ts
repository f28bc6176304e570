import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signUpVerified as signUpOverHttp } from '../proof/lib/accounts.js';
import { call, operatorHeaders } from '../proof/lib/client.js';
import { startProofDaemon, type ProofDaemon } from '../proof/lib/daemon.js';
import type { TestApp, TestResponse } from '../helpers/test-app.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * The security suite's daemon: a real process over loopback (SECURITY.md attack cases), with the
 * two test settings a process can take — a cheap scrypt cost (SVC_TEST_SCRYPT_N) and a clock
 * offset file (SVC_TEST_CLOCK_FILE) to step past expiries and throttle windows. `app` speaks the
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
  stop(): Promise<void>;
}

export async function startRemote(): Promise<Remote> {
  const dataDir = tempDir('svc-security');
  const clockFile = join(tempDir('svc-security-clock'), 'offset');
  writeFileSync(clockFile, '0');
  let offset = 0;
  const daemon = await startProofDaemon(dataDir, {
    SVC_TEST_SCRYPT_N: String(2 ** 10),
    SVC_TEST_CLOCK_FILE: clockFile,
  });
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
    stop: () => daemon.stop(),
  };
}

/** The newest captured mail to `to` (code and link), from the operator surface. */
export async function lastMail(r: Remote, to: string): Promise<{ code: string | null; link: string | null }> {
  for (let i = 0; i < 200; i++) {
    const mail = (await r.app.get(`/api/dev/mail?to=${encodeURIComponent(to)}`, r.app.operator)).body?.mail ?? [];
    if (mail.length) return mail.at(-1);
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`no mail to ${to}`);
}

/** Six minutes: past every per-address throttle window (5 min), so each case starts unthrottled. */
export const PAST_THROTTLES = 6 * 60_000;

/** Exactly one 2xx among answers (attack case 1). */
export const successes = (answers: TestResponse[]) => answers.filter((a) => a.status >= 200 && a.status < 300).length;
