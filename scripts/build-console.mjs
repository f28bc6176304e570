// Bundles the web console (console/) into dist/console-static/ with esbuild: one hashed script,
// one hashed stylesheet and the page naming them. No CDN and nothing fetched at run time: the
// daemon serves these files (daemon/console/routes.ts). Takes well under a second.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const root = new URL('../', import.meta.url);
const outdir = new URL('dist/console-static/', root).pathname;
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const result = await build({
  entryPoints: [new URL('console/main.tsx', root).pathname],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  entryNames: 'app-[hash]',
  // Libraries only some pages need (QR codes, WebAuthn, keccak) load as chunks when first used.
  splitting: true,
  chunkNames: 'chunk-[hash]',
  outdir,
  metafile: true,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const js = outputs.find((f) => f.startsWith('app-') && f.endsWith('.js'));
const css = outputs.find((f) => f.endsWith('.css'));
const page = readFileSync(new URL('console/index.html', root), 'utf8').replace('%JS%', js).replace('%CSS%', css);
writeFileSync(`${outdir}/index.html`, page);
