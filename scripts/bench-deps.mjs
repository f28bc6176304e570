// `npm run bench` step: installs what only the benchmarks use into .bench-deps/ when it is missing.
// better-sqlite3 compiles a native module at install (minutes on a small machine), so it is no
// dependency of the package: a plain `npm install` stays fast, and only a benchmark run pays.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const DEPS = { 'better-sqlite3': '^12.11.1' };
const dir = fileURLToPath(new URL('../.bench-deps/', import.meta.url));
const loads = (name) => {
  try {
    createRequire(dir + 'package.json')(name);
    return true;
  } catch {
    return false;
  }
};
const missing = Object.keys(DEPS).filter((name) => !loads(name));
if (missing.length > 0) {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(dir + 'package.json'))
    writeFileSync(dir + 'package.json', JSON.stringify({ private: true, name: 'svc-bench-deps' }, null, 2) + '\n');
  process.stderr.write(`bench: installing ${missing.join(', ')} into .bench-deps/ (once)\n`);
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefix', dir, ...missing.map((n) => `${n}@${DEPS[n]}`)],
    { stdio: 'inherit' },
  );
}
