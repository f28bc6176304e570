import { getSession, logOutLocally } from './session.js';

/** An error answer of the daemon ({ error, code }, CONTRACT §4), as the pages show it. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface CallOptions {
  /** Send the session token (default), nothing, or the operator token (/api/dev/*). */
  auth?: 'session' | 'none' | 'operator';
  /** Send X-Company for the Company runtime routes. */
  company?: boolean;
  signal?: AbortSignal;
}

export function headersFor(opts: CallOptions = {}): Record<string, string> {
  const s = getSession();
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = opts.auth === 'none' ? null : opts.auth === 'operator' ? s.operatorToken : s.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.company && s.companyId) headers['X-Company'] = s.companyId;
  return headers;
}

/** One call to the public REST API on this same origin; an error answer throws ApiFailure. */
export async function call<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  opts: CallOptions = {},
): Promise<T> {
  const headers = headersFor(opts);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: opts.signal,
      cache: 'no-store',
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiFailure(0, 'network', 'The daemon did not answer. Is it running?');
  }
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.ok) return data as T;
  // A revoked or expired session: drop it, so the page shows the login again.
  if (
    res.status === 401 &&
    (opts.auth ?? 'session') === 'session' &&
    getSession().token &&
    ['session_revoked', 'invalid_token'].includes(String(data.code))
  )
    logOutLocally();
  const extra =
    res.status === 429 && data.retry_after ? ` (try again in ${Math.ceil(Number(data.retry_after))} s)` : '';
  throw new ApiFailure(
    res.status,
    String(data.code ?? 'error'),
    String(data.error ?? `HTTP ${res.status}`) + extra,
    data,
  );
}

export const get = <T = unknown>(path: string, opts?: CallOptions) => call<T>('GET', path, undefined, opts);
export const post = <T = unknown>(path: string, body: unknown = {}, opts?: CallOptions) =>
  call<T>('POST', path, body, opts);
export const del = <T = unknown>(path: string, opts?: CallOptions) => call<T>('DELETE', path, undefined, opts);

/**
 * The login lives in this page's memory only, so a reload, a closed tab or a navigation away ends
 * it here; this ends it on the daemon too, so no live session is left behind for each reload.
 * `keepalive` lets the request outlive the page. A page kept in the back/forward cache
 * (`persisted`) still holds its login and may come back, so its session stays.
 */
export function endSessionWithPage(target: Window = window): void {
  target.addEventListener('pagehide', (e) => {
    const { token } = getSession();
    if (e.persisted || !token) return;
    void fetch('/api/auth/logout', {
      method: 'POST',
      keepalive: true,
      headers: { ...headersFor(), 'Content-Type': 'application/json' },
      body: '{}',
    }).catch(() => undefined);
  });
}
