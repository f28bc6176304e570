import type { ApiClient, RequestOptions } from '../../cli/api-client.js';
import { ApiRequestError } from '../../cli/errors.js';
import type { RuntimeTestApp } from './runtime-app.js';

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * An ApiClient for CLI tests that talks to a runtime test app in-process (no port): it answers
 * `GET /api/companies` itself with the app's Company, forwards everything else, records each call,
 * and lets a test break chosen calls (`fail`) to play a lost connection.
 */
export function createRuntimeApi(
  t: RuntimeTestApp,
  options: { fail?: (call: RecordedCall, n: number) => Error | null } = {},
) {
  const calls: RecordedCall[] = [];
  const call = async <T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    path: string,
    opts: RequestOptions = {},
  ): Promise<T> => {
    const query = Object.fromEntries(Object.entries(opts.query ?? {}).filter(([, v]) => v !== undefined));
    const recorded: RecordedCall = { method, path, query, headers: opts.headers ?? {}, body: opts.body };
    calls.push(recorded);
    const failure = options.fail?.(recorded, calls.length);
    if (failure) throw failure;
    if (path === '/api/companies') return { companies: [{ id: t.company.id, name: t.company.name }] } as T;
    if (path !== '/api/companies' && recorded.headers['X-Company'] !== t.company.id)
      throw new Error(`no X-Company on ${path}`);
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    const res = await t.request({
      method,
      url: qs ? `${path}?${qs}` : path,
      headers: { ...recorded.headers, 'content-type': 'application/json' },
      payload: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    if (res.status >= 400)
      throw new ApiRequestError(
        res.status,
        res.body?.code ?? `http_${res.status}`,
        res.body?.error ?? 'error',
        res.body,
      );
    return res.body as T;
  };
  const api: ApiClient = {
    baseUrl: 'http://test.invalid',
    get: (path, opts) => call('GET', path, opts),
    post: (path, body, opts) => call('POST', path, { ...opts, body: body ?? {} }),
    put: (path, body, opts) => call('PUT', path, { ...opts, body: body ?? {} }),
    delete: (path, opts) => call('DELETE', path, opts),
    patch: (path, body, opts) => call('PATCH', path, { ...opts, body: body ?? {} }),
    raw: async (method, path, opts = {}) => {
      const res = await t.request({
        method: method as 'GET',
        url: path,
        headers: { 'content-type': 'application/json', ...opts.headers },
        payload: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      return { status: res.status, body: res.body };
    },
  };
  return { api, calls };
}
