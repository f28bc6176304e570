import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** What the MCP cases send: `tools/call events list` with the 2025-11-25 headers. */
export const LIST_CALL = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'events', arguments: { action: 'list', limit: 20 } },
};
export const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
export const LATENCY_CALLS = 300;

/** Mean milliseconds of one sequential call straight to /api/mcp. */
export async function directLatency(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < LATENCY_CALLS; i++) {
    const res = await fetch(`${url}/api/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ ...LIST_CALL, id: i + 1 }),
    });
    const body = (await res.json()) as { error?: { message: string }; result?: { isError?: boolean } };
    if (res.status !== 200 || body.error || body.result?.isError)
      throw new Error(`direct call failed: ${res.status} ${JSON.stringify(body)}`);
  }
  return (performance.now() - started) / LATENCY_CALLS;
}

/**
 * Mean milliseconds of one sequential call through a running `svc mcp` child: write a line, wait
 * for its answer line. Every id is distinct, as an MCP client's are: the initialize's id is never
 * used again, so no later answer can be taken for the initialize's.
 */
export async function relayLatency(url: string, secretKey: string): Promise<number> {
  const main = fileURLToPath(new URL('../cli/main.js', import.meta.url));
  const child = spawn(process.execPath, [main, 'mcp'], {
    env: { ...process.env, SVC_URL: url, SVC_SECRET_KEY: secretKey, SVC_KEYCHAIN: 'off' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const roundTrip = async (message: { id: string | number }) => {
    child.stdin!.write(JSON.stringify(message) + '\n');
    const next = await lines.next();
    if (next.done) throw new Error('svc mcp closed its stdout');
    const answer = JSON.parse(next.value);
    if (answer.id !== message.id) throw new Error(`relay: answer for id ${answer.id}, expected ${message.id}`);
    if (answer.error || answer.result?.isError)
      throw new Error(`relay: ${JSON.stringify(answer.error ?? answer.result)}`);
    return answer;
  };
  try {
    await roundTrip({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
    } as { id: string });
    await roundTrip({ ...LIST_CALL, id: 'warm-up' }); // the first call opens the runtime
    const started = performance.now();
    for (let i = 0; i < LATENCY_CALLS; i++) await roundTrip({ ...LIST_CALL, id: i + 1 });
    return (performance.now() - started) / LATENCY_CALLS;
  } finally {
    child.stdin!.end();
    await new Promise((r) => child.once('exit', r));
  }
}
