import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_FACTORS } from '../../daemon/factors-config.js';
import { createTestApp, CHEAP_AUTH, type TestApp, type TestAppOptions } from './test-app.js';

export interface ConsoleDaemon {
  t: TestApp;
  /** The daemon's own address (127.0.0.1) and the console's (localhost: passkeys need a name, not an IP). */
  url: string;
  consoleUrl: string;
  close(): Promise<void>;
}

/**
 * The daemon in-process on a real loopback port, for a browser: the port is taken first so the
 * app's public URL (links, WebAuthn origins, SIWE domains) names it. Fake clock, memory stores,
 * cheap scrypt, and per-address throttles opened up (every browser call comes from 127.0.0.1).
 */
export async function startConsoleDaemon(options: TestAppOptions = {}): Promise<ConsoleDaemon> {
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    ...options,
    config: {
      ...options.config,
      port,
      publicUrl: url,
      auth: { ...CHEAP_AUTH, factors: { ...DEFAULT_FACTORS, perAddressLimit: 100_000 }, ...options.config?.auth },
    },
  });
  server.on('request', t.app.callback());
  return {
    t,
    url,
    consoleUrl: `http://localhost:${port}/`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
