import type { Server, ServerOptions } from 'node:http';
import type { Config } from './config.js';
import type { AddressInfo } from 'node:net';

/**
 * The slow-loris bounds of Config.timeouts as node:http options. Node checks them only every
 * `connectionsCheckingInterval` (30 s by default), so that is tightened too: otherwise a
 * trickling client keeps its socket up to 30 s past the limit.
 */
export function serverTimeouts(config: Pick<Config, 'timeouts'>): ServerOptions {
  const { headersMs, requestMs } = config.timeouts;
  return {
    headersTimeout: headersMs,
    requestTimeout: Math.max(requestMs, headersMs),
    connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersMs / 2)),
  };
}

/** How long a stop waits for in-flight requests before it cuts their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops accepting and resolves once every connection is gone. A keep-alive connection becomes idle
 * only when its in-flight request is answered, and server.close() closes idle ones just once, so
 * they are swept again until none is left (else each would linger for the keep-alive timeout).
 * Requests still running after `graceMs` (a stuck client) have their connections cut.
 */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 20);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}

export function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        reject(new Error(`port ${port} on ${host} is in use; pass --port N (or --port 0 for a free one)`));
      else if (err.code === 'EACCES')
        reject(new Error(`not allowed to listen on ${host}:${port}; pick a port above 1024`));
      else reject(err);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
