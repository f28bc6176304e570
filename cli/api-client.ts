import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { RequestOptions as NodeRequestOptions } from 'node:https';
import { VERSION } from '../shared/version.js';
import { ApiRequestError, FailedError } from './errors.js';

/** A response schema: anything with zod's `safeParse` (the shared ones are in shared/schemas/). */
export interface Schema<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

export interface RequestOptions<T = unknown> {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Bearer credential for this call; `null` sends none. */
  token?: string | null;
  signal?: AbortSignal;
  /** Checks the answer's shape: what the daemon sent is validated, not cast. */
  schema?: Schema<T>;
}

export interface RawResponse {
  status: number;
  body: unknown;
}

export interface ApiClient {
  readonly baseUrl: string;
  get<T>(path: string, options?: RequestOptions<T>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions<T>): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions<T>): Promise<T>;
  delete<T>(path: string, options?: RequestOptions<T>): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions<T>): Promise<T>;
  /** Any method, the answer whatever its status (`svc api`). */
  raw(method: string, path: string, options?: RequestOptions): Promise<RawResponse>;
}

/**
 * The CLI's one HTTP client, on node:http (node:https loaded only for an https URL: the client
 * costs nothing at start). Error answers become ApiRequestError with the daemon's `{ error, code }`;
 * a daemon that cannot be reached becomes one clear sentence; with a schema, an answer of the
 * wrong shape is an error naming the field, never a cast that fails later.
 */
export function createApiClient(
  baseUrl: string,
  defaultToken: () => Promise<string | null> = async () => null,
  unreachable: (base: string, cause: string) => Error = unreachableError,
): ApiClient {
  const base = baseUrl.replace(/\/+$/, '');
  async function raw(method: string, path: string, options: RequestOptions = {}): Promise<RawResponse> {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const token = options.token === undefined ? await defaultToken() : options.token;
    // The user agent names the CLI in `svc sessions list` (the daemon records it per session).
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `svc/${VERSION} node/${process.versions.node}`,
      ...options.headers,
    };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const send = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
    let res: { status: number; text: string };
    try {
      res = await exchange(send, url, { method, headers, signal: options.signal }, body);
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw unreachable(base, (err as NodeJS.ErrnoException).code ?? (err as Error).message);
    }
    let parsed: unknown;
    try {
      parsed = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      parsed = res.text;
    }
    return { status: res.status, body: parsed };
  }
  async function call<T>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
    const { status, body } = await raw(method, path, options);
    if (status >= 400) {
      const err = (body ?? {}) as { error?: string; code?: string };
      throw new ApiRequestError(status, err.code ?? `http_${status}`, err.error ?? `HTTP ${status}`, body);
    }
    if (!options.schema) return body as T;
    const checked = options.schema.safeParse(body);
    if (checked.success) return checked.data;
    const issue = checked.error.issues[0];
    throw new FailedError(
      `unexpected answer from ${method} ${path}: ${issue ? `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}` : 'wrong shape'}`,
      'the daemon and the CLI may be of different versions: compare `svc --version` with the daemon',
    );
  }
  return {
    baseUrl: base,
    get: (path, options) => call('GET', path, options),
    post: (path, body, options) => call('POST', path, { ...options, body: body ?? {} }),
    put: (path, body, options) => call('PUT', path, { ...options, body: body ?? {} }),
    delete: (path, options) => call('DELETE', path, options),
    patch: (path, body, options) => call('PATCH', path, { ...options, body: body ?? {} }),
    raw,
  };
}

/** Where the URL came from is unknown here: the CLI's context passes a sharper sentence (see context.ts). */
function unreachableError(base: string, cause: string): Error {
  return new FailedError(
    `cannot reach the svc daemon at ${base} (${cause})`,
    "start one with 'svc daemon start', or point --url / SVC_URL (or a profile: 'svc profile add') at a running one",
  );
}

type Send = (
  url: URL,
  options: NodeRequestOptions,
  callback: (res: IncomingMessage) => void,
) => ReturnType<typeof httpRequest>;

function exchange(
  send: Send,
  url: URL,
  options: NodeRequestOptions,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = send(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
