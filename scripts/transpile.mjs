// What `npm install` runs (the `prepare` script) to make `svc` runnable from a clone: every
// TypeScript file of cli/, daemon/ and shared/ transpiled to dist/ by esbuild, one file each, in
// about a second, where tsc takes 20 s on a quiet 2-core machine and over a minute under load
// (docs/performance.md, "Cold install"). No type check here: `npm run build` (tsc) does that, and
// `npm test` runs it first. Safe because the code passes tsc's `isolatedModules` rules (each file
// can be compiled alone); the tsconfig's settings (jsx, class fields) are read by esbuild too.
// `--outdir DIR` writes elsewhere than dist/ (tests/scripts/transpile.test.ts checks the output runs).
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const at = process.argv.indexOf('--outdir');
const outdir = at > 0 ? process.argv[at + 1] : 'dist';
const entryPoints = ['cli', 'daemon', 'shared'].flatMap((dir) =>
  readdirSync(new URL(dir, root), { recursive: true })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => `${dir}/${f}`),
);
await build({
  absWorkingDir: root.pathname,
  entryPoints,
  outdir,
  outbase: '.',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
