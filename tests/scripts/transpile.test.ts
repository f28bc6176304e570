import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../helpers/temp-dir.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
// Inside the checkout, so the output finds node_modules as dist/ does.
const out = join(repo, 'dist', `transpile-check-${process.pid}`);

// `npm install` builds with scripts/transpile.mjs (esbuild, no type check) instead of tsc: the
// daemon and the CLI it produces must run. (The bundle of the bin is built by build-cli.mjs, which
// tests/cli/bundle.test.ts covers.)
test('prepare’s esbuild transpile gives a daemon that serves and a CLI that answers', async () => {
  const built = spawnSync(process.execPath, [join(repo, 'scripts/transpile.mjs'), '--outdir', out], {
    encoding: 'utf8',
  });
  assert.is(built.status, 0, built.stderr);
  try {
    const version = spawnSync(process.execPath, [join(out, 'cli/main.js'), '--version'], { encoding: 'utf8' });
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    const daemon = spawn(process.execPath, [join(out, 'daemon/main.js'), '--port', '0', '--data', tempDir('svc-tr')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        daemon.stdout.on('data', (c) => {
          text += c;
          const found = /^listening on (\S+)/m.exec(text)?.[1];
          if (found) resolve(found);
        });
        daemon.stderr.on('data', (c) => (text += c));
        daemon.once('exit', (code) => reject(new Error(`daemon exited with ${code}: ${text}`)));
      });
      const res = await fetch(`${url}/healthz`);
      assert.is(res.status, 200);
    } finally {
      daemon.kill('SIGTERM');
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test.run();
