import { createHash, createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import Koa, { type Context } from 'koa';
import { keyProblem } from '../shared/keys.js';
import { FLOOR_ROWS_PATH, type FloorAnswer, type FloorRows, type KeyRow, type SessionRow } from './floor.js';

/**
 * The floor app: the least code that does the work of svc's hot routes — verify the session token
 * or hash the key, one lookup, the same answer bytes and headers — in one Koa middleware. Bare Koa
 * answers 11 bytes and checks nothing; this is what the same work costs with no chain around it, so
 * the daemon's cpu ratio to it is the share of a request's cost that is the route's own work (the
 * rest is svc's chain: middleware, routing, validation, logging, store layers).
 *
 * Its checks keep the daemon's security properties (HS256 pinned, `crit` refused, constant-time
 * signature compare, the session row read on every request), written here rather than imported
 * from daemon/, so the floor does not move when the daemon's code does. Its rows come from the
 * harness (bench/floor.ts), copied from the daemon's own answers. What it does not do: the access
 * log, the error renderer's JSON errors (a refusal is a bare 401), body limits, Host and Origin
 * checks — the chain the ratio is about.
 */
export function createFloorApp(): Koa {
  const tables: Tables = { sessions: new Map(), keys: new Map() };
  const app = new Koa();
  app.use(async (ctx) => {
    let found: FloorAnswer | null;
    switch (ctx.path) {
      case '/api/me':
        found = meAnswer(tables, ctx);
        break;
      case '/api/mcp/validate':
        found = findSecretKey(tables, ctx)?.validate ?? null;
        break;
      case '/api/mcp':
        found = await eventsListAnswer(tables, ctx);
        break;
      case FLOOR_ROWS_PATH:
        return addRows(tables, ctx);
      default:
        return;
    }
    if (!found) {
      ctx.status = 401;
      return;
    }
    ctx.set('X-Request-Id', nextRequestId());
    ctx.set(found.headers);
    ctx.body = found.body;
  });
  return app;
}

interface Tables {
  jwtKey?: KeyObject;
  sessions: Map<string, SessionRow>;
  keys: Map<string, KeyRow>;
}

function meAnswer(tables: Tables, ctx: Context): FloorAnswer | null {
  const claims = verifySessionToken(tables.jwtKey, bearerToken(ctx));
  const row = claims && tables.sessions.get(claims.sid);
  // As in the daemon's user guard: the row is read on every request, so a revoked session fails on its next one.
  if (!row || row.user_id !== claims.user_id || row.revoked_at || Date.parse(row.expires_at) <= Date.now()) return null;
  return row.answer;
}

async function eventsListAnswer(tables: Tables, ctx: Context): Promise<FloorAnswer | null> {
  const message = parseObject(await readBody(ctx));
  const found = findSecretKey(tables, ctx)?.eventsList;
  if (!found || message?.method !== 'tools/call') return null;
  const { result } = found.body as { result: unknown };
  return { headers: found.headers, body: { result, jsonrpc: '2.0', id: message.id } };
}

/** The key's format (prefix, length, alphabet, checksum) is checked before the lookup, as the daemon does. */
function findSecretKey(tables: Tables, ctx: Context): KeyRow | undefined {
  const key = bearerToken(ctx);
  if (!key || keyProblem('secret', key)) return undefined;
  return tables.keys.get(createHash('sha256').update(key, 'utf8').digest('hex'));
}

const JWT = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;
/** The one header seen to be `alg: HS256` without `crit`: it is public, so remembering it reveals nothing. */
let goodHeader = '';

/** The claims of a well-signed, unexpired session token; null for anything else. */
function verifySessionToken(
  jwtKey: KeyObject | undefined,
  token: string | null,
): { sid: string; user_id: string } | null {
  const parts = token && token.length <= 8192 ? JWT.exec(token) : null;
  if (!parts || !jwtKey) return null;
  const [, header, payload, signature] = parts as unknown as [string, string, string, string];
  if (header !== goodHeader) {
    const head = parseObject(Buffer.from(header, 'base64url').toString('utf8'));
    // The algorithm is pinned, so `alg: none` or an RS/HS confusion never reaches the signature check.
    if (head?.alg !== 'HS256' || 'crit' in head) return null;
    goodHeader = header;
  }
  const expected = createHmac('sha256', jwtKey).update(`${header}.${payload}`).digest('base64url');
  // Constant time, so the answer's timing does not reveal how much of a forged signature matched.
  if (!timingSafeEqual(Buffer.from(expected, 'latin1'), Buffer.from(signature, 'latin1'))) return null;
  const claims = parseObject(Buffer.from(payload, 'base64url').toString('utf8'));
  const now = Date.now() / 1000;
  if (typeof claims?.exp !== 'number' || now >= claims.exp) return null;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || now < claims.nbf)) return null;
  if (claims.typ === 'partial' || typeof claims.sid !== 'string' || typeof claims.user_id !== 'string') return null;
  return { sid: claims.sid, user_id: claims.user_id };
}

function bearerToken(ctx: Context): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'))?.[1] ?? null;
}

/** Request ids made as the daemon makes them (a random prefix per process and a counter), so they weigh the same. */
const idPrefix = Array.from(randomBytes(12), (b) => (b % 36).toString(36)).join('');
let idCounter = 0;
const nextRequestId = () => `req_${idPrefix}${(idCounter++).toString(36).padStart(6, '0')}`;

async function addRows(tables: Tables, ctx: Context): Promise<void> {
  const rows = JSON.parse(await readBody(ctx)) as FloorRows;
  if (rows.jwtSecret) tables.jwtKey = createSecretKey(Buffer.from(rows.jwtSecret, 'hex'));
  for (const [sid, row] of Object.entries(rows.sessions ?? {})) tables.sessions.set(sid, row);
  for (const [hash, row] of Object.entries(rows.keys ?? {}))
    tables.keys.set(hash, { ...tables.keys.get(hash), ...row });
  ctx.status = 204;
}

async function readBody(ctx: Context): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON text that holds an object (not an array, not a primitive); null otherwise. */
function parseObject(text: string): Record<string, any> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, any>) : null;
  } catch {
    return null;
  }
}

// Run as a script (by the harness), it serves on a free loopback port; imported (by its test), it only builds the app.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = createFloorApp().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
