import type { IncomingMessage } from 'node:http';
import type { Context, Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError } from './api-error.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { decodeUtf8 } from './utf8.js';

export interface BodyOptions {
  /** The largest body accepted on this path, in bytes (SECURITY.md: 64 KiB on auth routes, 1 MiB elsewhere). */
  limitFor(path: string): number;
  /** Paths whose handler reads the raw body itself (the MCP endpoint answers JSON-RPC errors, not ours). */
  passThrough?(path: string): boolean;
}

declare module 'koa' {
  interface Request {
    body?: unknown;
    /** The exact bytes received, for signature checks (webhooks). */
    rawBody?: Buffer;
  }
}

const EMPTY = Buffer.alloc(0);
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * JSON-only body parsing. An empty body reads as `{}` so routes that take no input accept a bare POST.
 * A body over the limit → 413 (checked on Content-Length first, then while streaming);
 * anything but JSON → 415; JSON that does not parse → 400. GET, HEAD and the pass-through paths
 * are left alone (their bodies, if any, unread, as before).
 */
export function parseJsonBody(options: BodyOptions): Middleware {
  return async function parseBody(ctx, next) {
    if (readsBody(ctx, options)) await readJsonBody(ctx, options);
    return next();
  };
}

/** Whether this request's body is parsed here: a method that carries one, on a path that does not read its own. */
export function readsBody(ctx: Context, options: BodyOptions): boolean {
  return METHODS_WITH_BODY.has(ctx.method) && !options.passThrough?.(ctx.path);
}

/** Reads and parses the body onto `ctx.request.body` (and its bytes onto `rawBody`); throws the 413/415/400. */
export async function readJsonBody(ctx: Context, options: BodyOptions): Promise<void> {
  const raw = await readRaw(ctx, options.limitFor(ctx.path));
  ctx.request.rawBody = raw;
  if (raw.length === 0) {
    ctx.request.body = {};
    return;
  }
  if (!isJsonContentType(ctx.get('Content-Type'))) {
    throw new ApiError(
      415,
      ErrorCode.unsupportedMediaType,
      'Request bodies must be JSON: send Content-Type: application/json.',
    );
  }
  ctx.request.body = parseJson(raw);
}

export function isJsonContentType(header: string): boolean {
  const [type, ...params] = header
    .toLowerCase()
    .split(';')
    .map((s) => s.trim());
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type ?? '')) return false;
  const charset = params.find((p) => p.startsWith('charset='));
  return !charset || charset === 'charset=utf-8';
}

export function parseJson(raw: Buffer): unknown {
  const text = decodeUtf8(raw);
  if (text === null)
    throw new ApiError(400, ErrorCode.invalidJson, 'The request body is not valid UTF-8: send JSON encoded as UTF-8.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError(400, ErrorCode.invalidJson, `The request body is not valid JSON: ${(err as Error).message}`);
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new ApiError(
      400,
      ErrorCode.invalidJson,
      `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
    );
  }
  return value;
}

export async function readRaw(ctx: Context, limit: number): Promise<Buffer> {
  const tooLarge = () =>
    new ApiError(
      413,
      ErrorCode.payloadTooLarge,
      `The request body is larger than the ${formatBytes(limit)} allowed here.`,
      { limit_bytes: limit },
    );
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limit) {
    ctx.req.resume(); // drain, so the client finishes sending and reads our answer
    throw tooLarge();
  }
  // No Content-Length (or 0) and no Transfer-Encoding: HTTP/1.1 says there is no body (RFC 9112 §6.3),
  // so skip creating an async iterator over a stream that can only end (a bare POST such as /api/mcp/validate).
  const chunked = ctx.get('Transfer-Encoding');
  if (declared === 0 && !chunked) return EMPTY;
  // A declared length within the limit is all the parser lets through, so no check is needed while reading.
  if (!chunked) return readDeclared(ctx.req);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.req.resume();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The body of a request framed by Content-Length, read with plain 'data' and 'end' listeners: an
 * async iterator over the request costs a few µs per request in objects and promises, on every
 * MCP call and every JSON POST. It fails as the iterator would: with the stream's error, or when
 * the stream closes before its end (a client that hung up mid-body).
 */
function readDeclared(req: IncomingMessage): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(EMPTY); // read already: nothing more will come
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    };
    const settle = (err: Error | null) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onEnd = () => settle(null);
    const onError = (err: Error) => settle(err);
    const onClose = () =>
      settle(
        Object.assign(new Error('The request closed before its body ended.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }),
      );
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onClose);
  });
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
