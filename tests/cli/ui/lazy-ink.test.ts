import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const dist = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'svc-lazy-ink-'));
// A module hook that writes every resolved module URL to a file: the loaded graph, as Node saw it.
writeFileSync(
  join(dir, 'hooks.mjs'),
  `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.SVC_MODULE_LOG, result.url + '\\n');
  return result;
}\n`,
);
writeFileSync(
  join(dir, 'register.mjs'),
  `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
);

/** Runs `node <args>` with the hook and returns the module URLs it loaded. */
function loadedModules(name: string, args: string[]): string[] {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, '');
  const env = {
    ...process.env,
    SVC_MODULE_LOG: log,
    SVC_CONFIG_DIR: join(dir, 'config'),
    SVC_DATA_DIR: join(dir, 'data'),
    SVC_URL: 'http://127.0.0.1:9',
    SVC_KEYCHAIN: 'off',
  };
  spawnSync(process.execPath, ['--import', join(dir, 'register.mjs'), ...args], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const loadsInk = (urls: string[]) =>
  urls.some((u) => /\/node_modules\/(ink|react|react-reconciler)\//.test(u) || /\/cli\/ui\/live-view\.js$/.test(u));

test('the piped path never loads Ink or React: svc events list --json', () => {
  const list = loadedModules('list', [join(dist, 'cli/main.js'), 'events', 'list', '--json']);
  assert.ok(
    // tsc's file, or the bundle's chunk of it (scripts/build-cli.mjs names chunks after their file).
    list.some((u) => /\/cli\/commands\/events\/tail\.js$|\/cli-chunks\/tail-\w+\.js$/.test(u)),
    'the whole command tree was loaded',
  );
  assert.not.ok(loadsInk(list), 'ink was loaded by svc events list --json');
});

test('the check can see Ink when it is loaded (the live view module imports it)', () => {
  const urls = loadedModules('view', [
    '--input-type=module',
    '-e',
    `await import(${JSON.stringify(join(dist, 'cli/ui/live-view.js'))})`,
  ]);
  assert.ok(loadsInk(urls));
  assert.ok(urls.some((u) => u.includes('/node_modules/ink/')));
});

test.run();
