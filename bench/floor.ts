import { createHash } from 'node:crypto';
import type { LoadOptions } from './load.js';

/**
 * What the harness hands the floor app (bench/floor-app.ts) and how it checks the floor answers as
 * the daemon does. The floor app holds no data of its own: every row it serves is copied from the
 * daemon's real answer to the same request, so both sides send the same bytes.
 */

/** The floor app's private set-up path; only the harness calls it. */
export const FLOOR_ROWS_PATH = '/_floor/rows';

/** A captured answer: the JSON body and the headers the daemon's code set (not Node's, not per request). */
export interface FloorAnswer {
  headers: Record<string, string>;
  body: unknown;
}

/** A session row with the fields the daemon's user guard checks, and the `GET /api/me` answer for it. */
export interface SessionRow {
  user_id: string;
  expires_at: string;
  revoked_at: string | null;
  answer: FloorAnswer;
}

/** A secret key's row (by the SHA-256 of the key): what each key route answers for it. */
export interface KeyRow {
  validate?: FloorAnswer;
  /** The JSON-RPC answer to `tools/call events list`; the floor app echoes each request's id in it. */
  eventsList?: FloorAnswer;
}

/** A set-up call's rows, added to those of earlier calls. `jwtSecret` is the daemon's, in hex. */
export interface FloorRows {
  jwtSecret?: string;
  sessions?: Record<string, SessionRow>;
  keys?: Record<string, KeyRow>;
}

/** The key's hash as the daemon stores it: SHA-256 of the whole key, in hex. */
export const hashSecretKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/**
 * Headers the route's code does not choose: Node writes the transport ones, and the request id is
 * made per request (the floor app makes its own, the same way).
 */
const NOT_THE_ROUTES = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const REQUEST_ID = 'x-request-id';

/** The answer `url` gives to `request` (sent as the load generator sends it), as a floor row's answer. */
export async function captureAnswer(url: string, request: LoadOptions = {}): Promise<FloorAnswer> {
  const res = await send(url, request);
  if (res.status !== 200) throw new Error(`set-up: ${url} answered ${res.status}: ${res.text}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (!NOT_THE_ROUTES.has(name) && name !== REQUEST_ID) headers[name] = value;
  return { headers, body: JSON.parse(res.text) };
}

/**
 * Fails unless the floor app answers `request` with the daemon's status, body bytes and headers
 * (the request ids differ by design; their shape must not, since the header's size is in the cost).
 */
export async function assertSameAnswer(daemonUrl: string, floorUrl: string, request: LoadOptions = {}) {
  const [daemon, floor] = await Promise.all([send(daemonUrl, request), send(floorUrl, request)]);
  const shape = (a: typeof daemon) => ({
    status: a.status,
    text: a.text,
    headers: Object.entries(a.headers)
      .filter(([name]) => !NOT_THE_ROUTES.has(name))
      .map(([name, value]) => `${name}: ${name === REQUEST_ID ? value.replace(/[0-9a-z]/g, 'x') : value}`)
      .sort()
      .join('\n'),
  });
  const [d, f] = [shape(daemon), shape(floor)];
  for (const key of ['status', 'text', 'headers'] as const)
    if (d[key] !== f[key])
      throw new Error(`the floor app's answer differs in its ${key}:\n${f[key]}\nthe daemon's:\n${d[key]}`);
}

/** Hands the floor app more rows. */
export async function addFloorRows(floorUrl: string, rows: FloorRows): Promise<void> {
  const res = await fetch(floorUrl + FLOOR_ROWS_PATH, { method: 'POST', body: JSON.stringify(rows) });
  if (res.status !== 204) throw new Error(`the floor app refused its rows: ${res.status}`);
}

async function send(url: string, request: LoadOptions) {
  const res = await fetch(url, {
    method: request.method ?? 'GET',
    headers: { ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers },
    body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
  });
  return { status: res.status, text: await res.text(), headers: Object.fromEntries(res.headers) };
}
