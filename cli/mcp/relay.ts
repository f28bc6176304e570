import type { Readable, Writable } from 'node:stream';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { explainRefusal, RELAY_ERROR, unreachable } from './explain.js';
import { skipBlankLines } from './skip-blank-lines.js';

export interface RelayIO {
  stdin: NodeJS.ReadableStream;
  /** JSON-RPC lines only: an MCP client reads every line of our stdout as a message. */
  stdout: NodeJS.WritableStream;
  log(line: string): void;
}

/** Where to relay to; `upstream` is null when no secret key was found (every request then gets `missingKey`). */
export interface RelayTarget {
  url: string;
  upstream: StreamableHTTPClientTransport | null;
  missingKey: string;
}

const rpcError = (id: RequestId | null, code: number, message: string, data?: unknown) =>
  ({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }) as JSONRPCMessage;

/**
 * `svc mcp`: the SDK's stdio server transport on one side, its Streamable HTTP client transport on
 * the other, and every message passed through both ways untouched — requests, notifications
 * (cancellations, progress), the client's responses to server requests, and whatever the server
 * sends on a stream. The relay adds only what a transport cannot: an `initialize` lands before
 * anything after it is sent; a session the server forgot (404) is re-initialized with the client's
 * own initialize and the message retried; an HTTP failure becomes a JSON-RPC error for the request
 * that caused it. Resolves when stdin ends and every forwarded message has been dealt with.
 */
export async function runRelay(io: RelayIO, target: RelayTarget): Promise<void> {
  const stdin = (io.stdin as Readable).pipe(skipBlankLines());
  const stdio = new StdioServerTransport(stdin, io.stdout as Writable);
  let closing = false;
  const { upstream } = target;
  const reply = (m: JSONRPCMessage) =>
    stdio.send(m).catch((err: Error) => io.log(`svc mcp: cannot write to stdout (${err.message})`));
  const inFlight = new Set<Promise<void>>();
  let handshake: Promise<void> | null = null;
  let initialize: (JSONRPCMessage & { id: RequestId }) | null = null;
  /** The id of the client's initialize until its answer has come back. */
  let awaitingInitialize: RequestId | null = null;
  const internal = new Map<RequestId, (m: JSONRPCMessage) => void>();
  let internalIds = 0;

  stdio.onerror = (err) => {
    // A line that is not JSON (or not JSON-RPC) is the client's problem to hear about, not a reason to stop.
    if (err instanceof SyntaxError) void reply(rpcError(null, -32700, `Parse error: ${err.message}`));
    else if ((err as { name?: string }).name === 'ZodError')
      void reply(rpcError(null, -32600, 'Invalid request: not a JSON-RPC 2.0 message.'));
    else io.log(`svc mcp: ${err.message}`);
  };

  if (upstream) {
    upstream.onmessage = (m) => {
      const id = (m as { id?: RequestId }).id;
      if (id !== undefined && internal.has(id) && !('method' in m)) return internal.get(id)!(m);
      // The negotiated revision goes on every later POST (MCP-Protocol-Version), as an SDK Client does.
      // Only the answer to the initialize still waiting counts: a client may use that id again later.
      if (awaitingInitialize !== null && id === awaitingInitialize && !('method' in m)) {
        awaitingInitialize = null;
        const version = isJSONRPCResultResponse(m) ? (m.result as { protocolVersion?: unknown }).protocolVersion : null;
        if (typeof version === 'string') upstream.setProtocolVersion?.(version);
      }
      void reply(m);
    };
    // Background failures (a stream that broke and could not be resumed). Not: the abort of our own
    // close, nor an HTTP refusal of a send (send() explains that one itself, in words that say what to do).
    upstream.onerror = (err) =>
      closing ||
      (err as { data?: { status?: number } }).data?.status !== undefined ||
      io.log(`svc mcp: ${err.message}`);
    await upstream.start();
  }

  /** Sends one message; an HTTP failure answers the request it was (a notification's is only logged). */
  const send = async (m: JSONRPCMessage, retried = false): Promise<void> => {
    const session = upstream!.sessionId;
    try {
      await upstream!.send(m);
    } catch (err) {
      const status = (err as { data?: { status?: number } }).data?.status;
      const text = (err as { data?: { text?: string } }).data?.text;
      if (status === 404 && session !== undefined && initialize && !retried && !isInitializeRequest(m)) {
        // Several messages may meet the 404 at once: one new session for all of them.
        if (
          upstream!.sessionId !== session ||
          (await (reinitializing ??= reinitialize().finally(() => (reinitializing = null))))
        )
          return send(m, true);
      }
      if (!isJSONRPCRequest(m))
        return io.log(`svc mcp: ${status ? explainRefusal(status, text, target.url) : unreachable(target.url, err)}`);
      // The server's own JSON-RPC error for this request (a 429 with Retry-After, say) passes as it is.
      const own = parseOwnError(text, m.id);
      if (own) return reply(own);
      const message = status ? explainRefusal(status, text, target.url) : unreachable(target.url, err);
      io.log(`svc mcp: ${message}`);
      await reply(rpcError(m.id, RELAY_ERROR, message, { http_status: status ?? null }));
    }
  };

  /** A new session from the client's own initialize (under a relay-made id, answered to no one), then `initialized`. */
  let reinitializing: Promise<boolean> | null = null;
  const reinitialize = async (): Promise<boolean> => {
    io.log('svc mcp: the server no longer knows this session (HTTP 404): initializing a new one');
    const id = `svc-relay-reinit-${++internalIds}`;
    const answered = new Promise<JSONRPCMessage>((resolve) => internal.set(id, resolve));
    try {
      await upstream!.send({ ...initialize!, id } as JSONRPCMessage);
      const answer = await answered;
      if (!isJSONRPCResultResponse(answer)) return false;
      await upstream!.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return true;
    } catch (err) {
      io.log(`svc mcp: re-initializing failed: ${(err as Error).message}`);
      return false;
    } finally {
      internal.delete(id);
    }
  };

  const forward = async (m: JSONRPCMessage): Promise<void> => {
    if (!upstream) {
      if (isJSONRPCRequest(m)) await reply(rpcError(m.id, RELAY_ERROR, target.missingKey, { reason: 'no_secret_key' }));
      else io.log(`svc mcp: dropped a notification: ${target.missingKey}`);
      return;
    }
    if (isInitializeRequest(m)) {
      initialize = m as JSONRPCMessage & { id: RequestId };
      awaitingInitialize = initialize.id;
      handshake = send(m);
      return handshake.finally(() => (handshake = null));
    }
    // Everything after initialize waits for its answer (the revision and session it settles); after
    // that, messages go out at once, so a cancellation is not stuck behind the call it cancels.
    if (handshake) await handshake;
    await send(m);
  };

  stdio.onmessage = (m) => {
    const p = forward(m).catch((err: Error) => io.log(`svc mcp: ${err.message}`));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const ended = new Promise<void>((resolve) => stdin.once('end', resolve));
  await stdio.start();
  await ended;
  while (inFlight.size > 0) await Promise.all([...inFlight]);
  closing = true;
  await upstream?.close().catch(() => undefined);
  await stdio.close();
}

function parseOwnError(text: string | undefined, id: RequestId): JSONRPCMessage | null {
  try {
    const body = JSON.parse(text ?? '') as unknown;
    return isJSONRPCErrorResponse(body) && body.id === id ? body : null;
  } catch {
    return null;
  }
}
