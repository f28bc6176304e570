import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A small HTTP client for the proof commands: every call is bounded in time (a hang is a finding,
 * not a stuck run) and answers { status, body, ms } whatever happened; a network error is status 0.
 */
export interface Answer {
  status: number;
  body: any;
  text: string;
  ms: number;
  headers: Headers | null;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw bytes or text sent as is (bad JSON, invalid UTF-8). */
  raw?: string | Uint8Array;
  timeoutMs?: number;
}

export async function call(base: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const started = performance.now();
  const headers: Record<string, string> = { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers };
  try {
    const res = await fetch(base + path, {
      method: options.method ?? (options.body !== undefined || options.raw !== undefined ? 'POST' : 'GET'),
      headers,
      body: (options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined)) as BodyInit | undefined,
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text, ms: performance.now() - started, headers: res.headers };
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    return { status: timedOut ? -1 : 0, body: undefined, text: String((err as Error).message), ms: performance.now() - started, headers: null };
  }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The operator token of the daemon's data folder (`/api/dev/*`). */
export function operatorHeaders(dataDir: string): Record<string, string> {
  return bearer(readFileSync(join(dataDir, 'operator-token'), 'utf8').trim());
}

/** Throws with the answer when `a` is not `status`: for set-up steps that must succeed. */
export function expectStatus(a: Answer, status: number, what: string): Answer {
  if (a.status !== status) throw new Error(`${what}: expected ${status}, got ${a.status} ${a.text.slice(0, 300)}`);
  return a;
}
