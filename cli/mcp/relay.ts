import { createInterface } from 'node:readline';
import type { McpHttpClient } from './http-client.js';

export interface RelayIO {
  stdin: NodeJS.ReadableStream;
  /** JSON-RPC lines only: an MCP client reads every line of our stdout as a message. */
  write(line: string): void;
  log(line: string): void;
}

type Id = string | number;
const rpcError = (id: Id | null, code: number, message: string, data?: unknown) => ({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });

/**
 * The stdio side of `svc mcp`: one JSON-RPC message per stdin line, forwarded in order (initialize
 * must land before what follows it), each answer written as one stdout line. Resolves when stdin
 * closes and the last forwarded message has been answered.
 * `client` is null when no secret key was found: every request then gets an error saying how to set one.
 */
export async function runRelay(io: RelayIO, client: McpHttpClient | null, missingKey: string): Promise<void> {
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  let queue = Promise.resolve();
  for await (const line of lines) {
    if (line.trim() === '') continue;
    queue = queue.then(() => relayLine(line, io, client, missingKey));
  }
  await queue;
}

async function relayLine(line: string, io: RelayIO, client: McpHttpClient | null, missingKey: string): Promise<void> {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch (err) {
    // A bad line is the client's problem to hear about, not a reason for the relay to stop.
    io.write(JSON.stringify(rpcError(null, -32700, `Parse error: ${(err as Error).message}`)));
    return;
  }
  const id = requestId(message);
  if (!client) {
    if (id !== undefined) io.write(JSON.stringify(rpcError(id, -32001, missingKey)));
    else io.log(`svc mcp: dropped a notification: ${missingKey}`);
    return;
  }
  const outcome = await client.post(message);
  if (outcome.ok) {
    for (const answer of outcome.messages) io.write(JSON.stringify(answer));
    return;
  }
  io.log(`svc mcp: ${outcome.message}`);
  // Only a request is waiting for an answer; a notification has no id to answer.
  if (id !== undefined) io.write(JSON.stringify(rpcError(id, -32000, outcome.message, { http_status: outcome.status })));
}

/** The id of a request (something with a method and an id); undefined for notifications and responses. */
function requestId(message: unknown): Id | null | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return Array.isArray(message) ? null : undefined;
  const m = message as { id?: unknown; method?: unknown };
  if (typeof m.method !== 'string') return undefined;
  return typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
}
