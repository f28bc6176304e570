import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';

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
  /** An undici dispatcher, e.g. an Agent bound to its own loopback address (the daemon throttles per address). */
  dispatcher?: Dispatcher;
}

/** Methods fetch refuses to send; the fuzz sends them anyway, over node:http. */
const FORBIDDEN_TO_FETCH = new Set(['TRACE', 'TRACK', 'CONNECT']);
/**
 * A path with characters U+0080–U+00FF: fetch would percent-encode them as UTF-8, node:http sends
 * each as one byte, which is how the fuzz puts invalid UTF-8 in a URL.
 */
const RAW_BYTES = /[\u0080-\u00ff]/;

function callRaw(base: string, path: string, options: CallOptions, started: number): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const req = request(
      { hostname, port, path, method: options.method, headers: options.headers, timeout: options.timeoutMs ?? 15_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let body: any;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body, text, ms: performance.now() - started, headers: null });
        });
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })));
    req.on('error', (err) =>
      resolve({
        status: err.name === 'TimeoutError' ? -1 : 0,
        body: undefined,
        text: err.message,
        ms: performance.now() - started,
        headers: null,
      }),
    );
    req.end(options.raw);
  });
}

export async function call(base: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const started = performance.now();
  if ((options.method && FORBIDDEN_TO_FETCH.has(options.method)) || RAW_BYTES.test(path))
    return callRaw(base, path, options, started);
  const headers: Record<string, string> = {
    ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  try {
    const res = await fetch(base + path, {
      method: options.method ?? (options.body !== undefined || options.raw !== undefined ? 'POST' : 'GET'),
      headers,
      body: (options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined)) as
        | BodyInit
        | undefined,
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    } as RequestInit);
    // A stream that opened is an answer: read no further (it only ends when the daemon stops).
    if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      await res.body?.cancel();
      return { status: res.status, body: undefined, text: '', ms: performance.now() - started, headers: res.headers };
    }
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
    return {
      status: timedOut ? -1 : 0,
      body: undefined,
      text: String((err as Error).message),
      ms: performance.now() - started,
      headers: null,
    };
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
