import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadedModules } from '../../helpers/module-log.js';

const dist = fileURLToPath(new URL('../../../', import.meta.url));

const loadsInk = (urls: string[]) =>
  urls.some((u) => /\/node_modules\/(ink|react|react-reconciler)\//.test(u) || /\/cli\/ui\/live-view\.js$/.test(u));

test('the piped path never loads Ink or React: svc events list --json', () => {
  const list = loadedModules('list', [join(dist, 'cli/main.js'), 'events', 'list', '--json']);
  assert.ok(
    // tsc's file, or the bundle's chunk of it (scripts/build-cli.mjs names chunks after their file).
    list.some((u) => /\/cli\/commands\/events\/list\.js$|\/cli-chunks\/list-\w+\.js$/.test(u)),
    'the events list command was not loaded',
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
