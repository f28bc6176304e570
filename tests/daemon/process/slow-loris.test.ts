import { connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startDaemon } from '../../../daemon/main.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** Opens a socket, sends `first`, then one byte of `drip` every `everyMs` until the server closes it. */
function trickle(
  url: string,
  first: string,
  drip: string,
  everyMs: number,
  giveUpMs: number,
): Promise<{ closed: boolean; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let i = 0;
    const timer = setInterval(() => socket.write(drip[i++ % drip.length]!), everyMs);
    const done = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closed, answer });
    };
    // A liveness bound, not a timing assertion: Node's defaults keep such a socket 60-90 s.
    const giveUp = setTimeout(() => done(false), giveUpMs);
    socket.on('data', (c) => (answer += c));
    socket.on('close', () => done(true));
    socket.on('error', () => undefined);
    socket.write(first);
  });
}

// With Node's own defaults a slow-loris connection stays open ~70 s.
test('a client trickling its headers or its body is answered 408 and disconnected (limits from the environment)', async () => {
  const daemon = await startDaemon(
    { port: 0, data: tempDir('svc-data'), logOutput: { write: () => undefined } },
    { SVC_HEADERS_TIMEOUT_MS: '800', SVC_REQUEST_TIMEOUT_MS: '1500' },
  );
  try {
    const headers = await trickle(
      daemon.url,
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      'X-Slow: abcdef\r\n',
      150,
      20_000,
    );
    assert.ok(headers.closed, 'the server closed a connection whose headers never ended');
    assert.match(headers.answer, /^HTTP\/1\.1 408/);
    const body = await trickle(
      daemon.url,
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
      ' ',
      150,
      20_000,
    );
    assert.ok(body.closed, 'the server closed a connection whose body never ended');
    // A healthy request on a fresh connection still works.
    assert.is((await fetch(`${daemon.url}/healthz`)).status, 200);
  } finally {
    await daemon.stop();
  }
});

test('bad timeout settings refuse to start with a clear message', async () => {
  const { resolveConfig } = await import('../../../daemon/main.js');
  assert.throws(
    () => resolveConfig({ data: tempDir('svc-data') }, { SVC_HEADERS_TIMEOUT_MS: 'soon' }),
    /SVC_HEADERS_TIMEOUT_MS/,
  );
  assert.is(resolveConfig({ data: tempDir('svc-data') }, {}).timeouts.headersMs, 5_000);
});

test.run();
