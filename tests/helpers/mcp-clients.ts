import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { tempDir } from './temp-dir.js';

/**
 * The official SDK clients, as a user would connect them to svc: v1 (@modelcontextprotocol/sdk) and
 * v2 (@modelcontextprotocol/client), over Streamable HTTP or through the built `svc mcp`. Each
 * returns the connected client; the caller closes it.
 */
export const CLI_MAIN = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

export interface Keys {
  secret: string;
  account?: string;
}

const keyHeaders = (k: Keys): Record<string, string> => ({
  Authorization: `Bearer ${k.secret}`,
  ...(k.account ? { 'X-Api-Key': k.account } : {}),
});

/** The environment `svc mcp` gets from an MCP client's config: the URL and keys, an empty config folder, no keychain. */
export const relayEnv = (url: string, k: Keys): Record<string, string> => ({
  SVC_URL: url,
  SVC_SECRET_KEY: k.secret,
  ...(k.account ? { SVC_ACCOUNT_KEY: k.account } : {}),
  SVC_CONFIG_DIR: tempDir('svc-config'),
  SVC_KEYCHAIN: 'off',
  PATH: process.env.PATH ?? '',
});

/** v1 over HTTP; `protocolVersion` makes it offer an older revision in initialize (as older SDKs do). */
export async function connectV1Http(url: string, k: Keys, protocolVersion?: string): Promise<Client> {
  const client = new Client({ name: 'sdk-v1', version: '1.0.0' });
  if (protocolVersion) pinLegacyVersion(client, protocolVersion);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers: keyHeaders(k) } }),
  );
  return client;
}

export async function connectV1Relay(url: string, k: Keys): Promise<Client> {
  const client = new Client({ name: 'sdk-v1-stdio', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI_MAIN, 'mcp'],
      env: relayEnv(url, k),
      stderr: 'pipe',
    }),
  );
  return client;
}

/** v2; `mode` is its version negotiation: 'legacy' (initialize), 'auto' (server/discover, else initialize) or a pinned modern revision. */
export type V2Mode = 'legacy' | 'auto' | { pin: string };

export async function connectV2Http(url: string, k: Keys, mode: V2Mode): Promise<ClientV2> {
  const client = new ClientV2({ name: 'sdk-v2', version: '2.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new HttpTransportV2(new URL(`${url}/api/mcp`), { requestInit: { headers: keyHeaders(k) } }));
  return client;
}

export async function connectV2Relay(url: string, k: Keys, mode: V2Mode): Promise<ClientV2> {
  const client = new ClientV2({ name: 'sdk-v2-stdio', version: '2.0.0' }, { versionNegotiation: { mode } });
  await client.connect(
    new StdioTransportV2({ command: process.execPath, args: [CLI_MAIN, 'mcp'], env: relayEnv(url, k), stderr: 'pipe' }),
  );
  return client;
}

/** Makes a v1 Client offer `version` in initialize (the SDK sends LATEST_PROTOCOL_VERSION; older clients sent their own). */
function pinLegacyVersion(client: Client, version: string): void {
  const request = client.request.bind(client);
  (client as { request: typeof client.request }).request = ((
    req: { method: string; params?: Record<string, unknown> },
    ...rest: unknown[]
  ) =>
    request(
      (req.method === 'initialize' ? { ...req, params: { ...req.params, protocolVersion: version } } : req) as never,
      ...(rest as [never]),
    )) as typeof client.request;
}
