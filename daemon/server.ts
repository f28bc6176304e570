import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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
      if (err.code === 'EADDRINUSE') reject(new Error(`port ${port} on ${host} is in use; pass --port N (or --port 0 for a free one)`));
      else if (err.code === 'EACCES') reject(new Error(`not allowed to listen on ${host}:${port}; pick a port above 1024`));
      else reject(err);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
