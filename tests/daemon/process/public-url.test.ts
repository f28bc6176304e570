import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startDaemon } from '../../../daemon/main.js';
import { tempDir } from '../../helpers/temp-dir.js';

const quiet = { write: () => {} };

// Behind a proxy the public URL is the proxy's: OAuth metadata and e-mailed links must keep it
// even when the daemon's own port is picked at start.
test('a port picked at start replaces the default public URL, but not one given by flag or by SVC_PUBLIC_URL', async () => {
  const plain = await startDaemon({ port: 0, data: tempDir('svc-data'), logOutput: quiet }, {});
  assert.is(plain.deps.config.publicUrl, plain.url);
  assert.is.not(plain.deps.config.port, 0);
  await plain.stop();

  const byEnv = await startDaemon(
    { port: 0, data: tempDir('svc-data'), logOutput: quiet },
    { SVC_PUBLIC_URL: 'https://svc.example.com' },
  );
  assert.is(byEnv.deps.config.publicUrl, 'https://svc.example.com');
  assert.is(byEnv.deps.config.port, Number(new URL(byEnv.url).port));
  await byEnv.stop();

  const byFlag = await startDaemon(
    { port: 0, data: tempDir('svc-data'), publicUrl: 'https://flag.example.com/', logOutput: quiet },
    { SVC_PUBLIC_URL: 'https://svc.example.com' },
  );
  assert.is(byFlag.deps.config.publicUrl, 'https://flag.example.com');
  await byFlag.stop();
});

test.run();
