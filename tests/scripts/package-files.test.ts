import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * What `npm publish` would ship, from npm's own file list (`--ignore-scripts`: `prepare` would
 * rebuild the dist/ these tests run from). An installed svc needs its bin, both bundles and the web
 * console's files, and the example seed and scenario the README runs; it must not carry the tests, the benchmarks or source maps, which would only
 * make every install larger.
 */
test('the published package holds the bin, both bundles and the console, and no tests, benches or maps', () => {
  const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: repo,
    encoding: 'utf8',
  });
  assert.is(packed.status, 0, packed.stderr);
  const files: string[] = JSON.parse(packed.stdout)[0].files.map((f: { path: string }) => f.path);
  for (const needed of [
    'dist/cli/svc.cjs',
    'dist/cli/main.js',
    'dist/cli/fast.cjs',
    'dist/daemon-bundle/main.js',
    'dist/console-static/index.html',
    'README.md',
    'package.json',
    // the README's seed-and-go steps name these files
    'examples/seed.json',
    'examples/scenario.json',
  ])
    assert.ok(files.includes(needed), `${needed} is not in the package`);
  assert.ok(
    files.some((f) => /^dist\/daemon-bundle\/daemon-\w+\.cjs$/.test(f)),
    'the daemon bundle',
  );
  assert.ok(
    files.some((f) => /^dist\/console-static\/app-\w+\.js$/.test(f)),
    "the console's script",
  );
  const unwanted = files.filter((f) => /^(tests|bench)\/|^dist\/(tests|bench)\/|\.map$/.test(f));
  assert.equal(unwanted, [], 'tests, benchmarks and source maps stay out');
});

test.run();
