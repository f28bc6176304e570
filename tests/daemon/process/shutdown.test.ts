import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readLock } from '../../../daemon/lock.js';
import { startDaemon } from '../../../daemon/main.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { readAccountRows } from '../../helpers/account-rows.js';
import { inviteSpec } from '../../../daemon/store/accounts/tables.js';

function capture() {
  let text = '';
  return { write: (chunk: string) => void (text += chunk), text: () => text };
}

test('stop() lets an in-flight request finish, then flushes, logs and releases the lock', async () => {
  const data = tempDir('svc-data');
  const logs = capture();
  const daemon = await startDaemon({ port: 0, data, logOutput: logs });
  const token = readFileSync(join(data, 'operator-token'), 'utf8').trim();
  const { port } = new URL(daemon.url);

  // A request whose body is still arriving when the stop begins.
  const events: string[] = [];
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/dev/invites',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': 2 },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          events.push('answered');
          resolve({ status: res.statusCode!, body });
        });
      },
    );
    req.on('error', reject);
    // Once the server has the request (headers in, body half sent), start stopping, then send the rest.
    daemon.server.once('request', () => {
      events.push('stop');
      stopped = daemon.stop().then(() => void events.push('stopped'));
      setImmediate(() => req.end('}'));
    });
    req.write('{');
  });
  let stopped: Promise<void> | undefined;
  const res = await answered;
  await stopped;
  assert.is(res.status, 201, res.body);
  assert.match(JSON.parse(res.body).code, /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  // The server finishes the answer before stop() goes on; when this process's client reads the end of
  // it is up to the event loop, so only "stop came first and both happened" is the daemon's promise.
  assert.is(events[0], 'stop');
  assert.equal(events.slice(1).sort(), ['answered', 'stopped']);
  const invites = await readAccountRows(data, inviteSpec);
  assert.is(invites.length, 1, 'the in-flight write reached the disk');
  assert.is(readLock(data), null, 'the lock is released');
  assert.ok(logs.text().includes('POST /api/dev/invites 201'), 'the access-log line of the last request is flushed');
  // New connections are refused once stopped.
  const refused = await fetch(`${daemon.url}/healthz`).then(
    () => false,
    () => true,
  );
  assert.ok(refused);
});

test('the daemon writes one access-log line per request, with the request id it answered with', async () => {
  const data = tempDir('svc-data');
  const logs = capture();
  const daemon = await startDaemon({ port: 0, data, logOutput: logs });
  try {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${daemon.url}/healthz`);
      ids.push(res.headers.get('x-request-id')!);
    }
    const echoed = await fetch(`${daemon.url}/nope`, { headers: { 'x-request-id': 'client-id-1' } });
    assert.is(echoed.headers.get('x-request-id'), 'client-id-1');
    assert.is(new Set(ids).size, 5, 'request ids are unique');
    await daemon.stop();
    const lines = logs.text().trim().split('\n');
    for (const id of ids)
      assert.is(
        lines.filter((l) => l.includes(`"request_id":"${id}"`) && l.includes('GET /healthz 200')).length,
        1,
        id,
      );
    assert.ok(lines.some((l) => l.includes('GET /nope 404') && l.includes('"request_id":"client-id-1"')));
    for (const line of lines) assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (info|warn|error) /);
  } finally {
    await daemon.stop();
  }
});

test.run();
