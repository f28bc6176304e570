import { request, type Dispatcher } from 'undici';
import { VERSION } from '../shared/version.js';
import { ApiRequestError, FailedError } from './errors.js';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Bearer credential for this call; `null` sends none. */
  token?: string | null;
  signal?: AbortSignal;
}

export interface ApiClient {
  readonly baseUrl: string;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
}

/**
 * The CLI's HTTP client (undici). Error answers become ApiRequestError with the daemon's
 * `{ error, code }`; a daemon that cannot be reached becomes one clear sentence.
 */
export function createApiClient(baseUrl: string, defaultToken: () => Promise<string | null> = async () => null, dispatcher?: Dispatcher): ApiClient {
  const base = baseUrl.replace(/\/+$/, '');
  async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const token = options.token === undefined ? await defaultToken() : options.token;
    // The user agent names the CLI in `svc sessions list` (the daemon records it per session).
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `svc/${VERSION} node/${process.versions.node}`, ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, { method, headers, body, signal: options.signal, dispatcher });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new FailedError(
        `cannot reach the svc daemon at ${base} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
        "start one with 'svc daemon start', or point --url / SVC_URL at a running one",
      );
    }
    const text = await res.body.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (res.statusCode >= 400) {
      const err = (parsed ?? {}) as { error?: string; code?: string };
      throw new ApiRequestError(res.statusCode, err.code ?? `http_${res.statusCode}`, err.error ?? `HTTP ${res.statusCode}`, parsed);
    }
    return parsed as T;
  }
  return {
    baseUrl: base,
    get: (path, options) => call('GET', path, options),
    post: (path, body, options) => call('POST', path, { ...options, body: body ?? {} }),
    delete: (path, options) => call('DELETE', path, options),
  };
}
