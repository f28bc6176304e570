// Measures a cold `npm install` as a new user meets it (target <= 60 s on the 2-core machine,
// docs/performance.md): a fresh clone of this checkout's HEAD in a temp folder, an empty npm cache, then
// `npm install --no-audit --no-fund`, which downloads and unpacks every package and runs `prepare`
// (scripts/transpile.mjs etc.). Prints the wall time, the two phases (packages, prepare) read from
// npm's own timing log, and the load average around it, which the figure depends on.
// Usage: node scripts/measure-install.mjs [--keep]   (needs the npm registry; takes a minute)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = new URL('../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'svc-install-'));
const clone = join(work, 'svc');
const cache = join(work, 'npm-cache');
execFileSync('git', ['clone', '--quiet', repo, clone]);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const loadBefore = load();
const start = process.hrtime.bigint();
const run = spawnSync(
  'npm',
  ['install', '--no-audit', '--no-fund', '--cache', cache, '--timing', '--loglevel=timing'],
  {
    cwd: clone,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  },
);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
if (run.status !== 0) {
  process.stderr.write(run.stdout + run.stderr);
  throw new Error(`npm install failed (exit ${run.status}); the clone is kept in ${clone}`);
}
const log = run.stdout + run.stderr;
const phase = (name) => Number(log.match(new RegExp(`timing ${name} Completed in (\\d+)ms`))?.[1] ?? NaN) / 1000;
const added = log.match(/added (\d+) packages/)?.[1] ?? '?';
console.log(`cold npm install: ${seconds.toFixed(1)} s (${added} packages, node ${process.version})`);
console.log(`  packages (download + unpack): ${phase('reify').toFixed(1)} s`);
console.log(
  `  then prepare (transpile + bundles) and the rest: ${(phase('command:install') - phase('reify')).toFixed(1)} s`,
);
console.log(`  load average before: ${loadBefore}, after: ${load()} (2 cores: above 2 means waiting for a core)`);
if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
else console.log(`  kept: ${clone}`);
