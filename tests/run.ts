/**
 * The test runner: loads every tests/**\/*.test.js (or those whose path contains an argument),
 * runs them with uvu, and prints `N passed, N failed` as its last line — the line CI reads.
 * Exits non-zero when a test failed or when no test ran.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type SuiteRun = () => Promise<[string | true, number, number, number]>;
declare global {
  // eslint-disable-next-line no-var
  var UVU_DEFER: number;
  // eslint-disable-next-line no-var
  var UVU_QUEUE: Array<Array<string | null | SuiteRun>>;
  // eslint-disable-next-line no-var
  var UVU_INDEX: number;
}

// The tests fake terminals where they need one, so they must see the same environment on CI as on
// a laptop: Ink reads CI once when it loads and then draws only a final frame (is-in-ci). Cleared
// before any test module (and so Ink) is imported; the CLI under test gets its env from each test.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
// The CLI and the daemon keep V8 code caches in the user's cache folder (shared/code-cache.ts): a
// test run uses its own, so it never writes into (or reads from) the developer's ~/.cache/svc.
process.env.SVC_CACHE_DIR ??= mkdtempSync(join(tmpdir(), 'svc-test-cache-'));

const root = fileURLToPath(new URL('.', import.meta.url));
const filters = process.argv.slice(2);

function findTests(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? findTests(join(dir, e.name)) : e.name.endsWith('.test.js') ? [join(dir, e.name)] : [],
    )
    .sort();
}

const files = findTests(root).filter((f) => filters.length === 0 || filters.some((x) => relative(root, f).includes(x)));

globalThis.UVU_DEFER = 1;
globalThis.UVU_QUEUE = [];
let index = 0;
for (const file of files) {
  globalThis.UVU_INDEX = index++;
  globalThis.UVU_QUEUE.push([relative(root, file)]);
  await import(pathToFileURL(file).href);
}

let passed = 0;
let failed = 0;
const started = Date.now();
for (const group of globalThis.UVU_QUEUE) {
  const name = group.shift() as string | null;
  if (name) process.stdout.write(`\n${name}\n`);
  for (const run of group as SuiteRun[]) {
    const [errors, ran, , total] = await run();
    passed += ran;
    failed += total - ran;
    if (errors !== true) process.stdout.write('\n' + errors + '\n');
  }
}
process.stdout.write(`\n${files.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
// Tests may leave timers or sockets behind; the verdict is in, so do not hang on them.
setTimeout(() => process.exit(process.exitCode), 200).unref();
