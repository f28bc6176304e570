import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FailedError } from '../../../cli/errors.js';
import { unreachableDaemon } from '../../../cli/unreachable.js';
import { runMain } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** A loopback port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

test('a stopped daemon of a --data profile: the message names the URL it last used, its folder, and the start command with --data', async () => {
  // No SVC_DATA_DIR: the profile's folder is the one in use.
  const env = { SVC_CONFIG_DIR: tempDir('svc-config'), SVC_DATA_DIR: undefined as unknown as string };
  const dir = tempDir('svc-data-work');
  const port = await closedPort();
  // What a daemon started in that folder leaves behind once it has stopped.
  writeFileSync(join(dir, 'daemon.url'), `http://127.0.0.1:${port}\n`);
  assert.is((await runMain(['profile', 'add', 'work', '--data', dir], env)).code, 0);
  const res = await runMain(['--profile', 'work', 'api', 'GET', '/healthz'], env);
  assert.is(res.code, 1);
  assert.match(res.err, `cannot reach the svc daemon at http://127.0.0.1:${port} (ECONNREFUSED)`);
  assert.not.match(res.err, '7878', 'a port the profile never used is not named');
  assert.match(res.err, `no svc daemon is running on the data folder ${dir} of profile 'work'`);
  assert.match(res.err, `svc daemon start --data ${dir}`);
});

test('a folder whose daemon never ran: the default address, said to be the default, and still the --data hint', () => {
  const dir = tempDir('svc-data-new');
  const origin = { from: 'folder', profile: 'fresh', dir, lastUrl: null } as const;
  const err = unreachableDaemon(origin, { HOME: '/home/x' })('http://127.0.0.1:7878', 'ECONNREFUSED');
  assert.match(err.message, '(http://127.0.0.1:7878 is the default address)');
  assert.is((err as FailedError).hint, `start it with 'svc daemon start --data ${dir}'`);
  const home = unreachableDaemon({ ...origin, dir: '/home/x/.local/share/svc' }, { HOME: '/home/x' });
  assert.is(
    (home('http://127.0.0.1:7878', 'ECONNREFUSED') as FailedError).hint,
    "start it with 'svc daemon start'",
    'the default folder needs no --data',
  );
});

test('a profile with a fixed URL, or --url: the message names that URL and nothing about data folders', async () => {
  const env = { SVC_CONFIG_DIR: tempDir('svc-config') };
  const port = await closedPort();
  assert.is((await runMain(['profile', 'add', 'remote', '--url', `http://127.0.0.1:${port}`], env)).code, 0);
  const byProfile = await runMain(['--profile', 'remote', 'api', 'GET', '/healthz'], env);
  assert.is(byProfile.code, 1);
  assert.match(
    byProfile.err,
    `cannot reach the svc daemon at http://127.0.0.1:${port} (ECONNREFUSED), the URL of profile 'remote'`,
  );
  assert.not.match(byProfile.err, 'data folder');
  const byFlag = await runMain(['--url', `http://127.0.0.1:${port}`, 'api', 'GET', '/healthz'], env);
  assert.is(byFlag.code, 1);
  assert.match(byFlag.err, `cannot reach the svc daemon at http://127.0.0.1:${port}`);
  assert.not.match(byFlag.err, 'data folder');
});

test.run();
