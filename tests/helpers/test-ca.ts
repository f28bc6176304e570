import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './temp-dir.js';

/** A certificate authority of the test's own and a server certificate it signed for localhost/127.0.0.1. */
export interface TestCa {
  caPem: string;
  certPem: string;
  keyPem: string;
}

let made: TestCa | null | undefined;

/**
 * Made once per process with the openssl command (ECDSA P-256, a day long). The daemon trusts the
 * CA only through `deps.oauthFetch.extraCaCerts`, never through a process-wide setting. Null when
 * openssl is not installed: the caller skips its https tests, saying so in one line.
 */
export function testCa(): TestCa | null {
  if (made !== undefined) return made;
  const dir = tempDir('svc-ca');
  const at = (name: string) => join(dir, name);
  const run = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  try {
    run(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=svc test CA',
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.pem'),
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    );
    run(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-keyout',
      at('server.key'),
      '-out',
      at('server.csr'),
    );
    writeFileSync(at('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
    run(
      'x509',
      '-req',
      '-in',
      at('server.csr'),
      '-CA',
      at('ca.pem'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      at('ext.cnf'),
      '-out',
      at('server.pem'),
    );
    made = {
      caPem: readFileSync(at('ca.pem'), 'utf8'),
      certPem: readFileSync(at('server.pem'), 'utf8'),
      keyPem: readFileSync(at('server.key'), 'utf8'),
    };
  } catch (err) {
    process.stdout.write(
      `https tests skipped: openssl could not make a test CA (${(err as Error).message.split('\n')[0]}).\n`,
    );
    made = null;
  }
  return made;
}

export interface HttpsTestServer {
  /** `https://localhost:<port>` */
  origin: string;
  /** Requests seen, by path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** An https server on loopback with the test CA's certificate, answering through `handle`. */
export async function serveHttps(
  ca: TestCa,
  handle: (req: IncomingMessage, res: ServerResponse, origin: string) => void,
): Promise<HttpsTestServer> {
  const hits = new Map<string, number>();
  let origin = '';
  const server: Server = createServer({ cert: ca.certPem, key: ca.keyPem }, (req, res) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    handle(req, res, origin);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
