import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Where `npm run bench` installs what only the benchmarks use (scripts/bench-deps.mjs), out of the package's dependencies. */
export const BENCH_DEPS = fileURLToPath(new URL('../../.bench-deps/', import.meta.url));

/** Loads a package from .bench-deps/, with a clear message when `npm run bench` has not installed it yet. */
export function loadBenchDependency<T>(name: string): T {
  try {
    return createRequire(BENCH_DEPS + 'package.json')(name) as T;
  } catch (err) {
    throw new Error(
      `${name} is not installed for the benchmarks (${(err as Error).message.split('\n')[0]}): run 'npm run bench', which installs it into .bench-deps/`,
    );
  }
}
