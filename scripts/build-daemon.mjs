// Bundles the daemon for `svc daemon start --foreground` (docs/performance.md, "Fourth pass"):
// - dist/daemon-bundle/daemon-<hash>.cjs: daemon/main.ts and every package it uses, in one
//   CommonJS-shaped file. Why: Node's ESM loader pays per file (resolve, stat, read, compile, link:
//   roughly 1 ms each) and a start loaded ~430 of them; and Node 20 has a code cache only for code
//   run through vm.Script, not for modules, so the bundle is CommonJS-shaped to be run that way.
// - dist/daemon-bundle/main.js (daemon/bundled-main.ts): what the CLI imports; runs that file with
//   V8's code cache (shared/code-cache.ts, in the user's cache folder, as the CLI's fast bundle).
// Laziness is kept: the libraries the daemon loads on first use (daemon/lazy-module.ts: wallet,
// passkeys, SMTP, PostgreSQL) stay import()s from node_modules; the daemon's own modules behind an
// import() (the MCP endpoint) are in the file but run on first use (esbuild wraps them), and the MCP
// SDKs they import stay in node_modules, required then (bundled in, their CommonJS parts' require of
// zod made esbuild run zod/mini's module after the daemon's schemas that use it).
// Same folder depth as dist/daemon/, so paths relative to import.meta.url (../../package.json,
// ../cli/main.js, ../console-static/) hold. tsc's dist/daemon/ stays for the tests that import
// modules in-process.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const outdir = new URL('dist/daemon-bundle/', root);
/** Loaded on first use by an import() (daemon/lazy-module.ts), or only in team mode: never part of a start. */
const LAZY = new Set(['ethers', 'siwe', '@simplewebauthn/server', 'nodemailer', 'pg', 'oidc-provider']);
/** Imported by the MCP endpoint, which the first MCP request loads (daemon/mcp/routes.ts). */
const isMcpSdk = (path) => path.startsWith('@modelcontextprotocol/');
const packageOf = (path) => (path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]);

const externals = {
  name: 'svc-daemon-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      return LAZY.has(packageOf(args.path)) || isMcpSdk(args.path) ? { path: args.path, external: true } : undefined;
    });
  },
};

const result = await build({
  absWorkingDir: root.pathname,
  entryPoints: ['daemon/main.ts'],
  outfile: 'daemon.cjs',
  write: false,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // import.meta does not exist in CommonJS: the file's own URL stands in (same folder depth, see
  // above). The file is one function expression, the shape shared/code-cache.ts runs.
  define: { 'import.meta.url': '__svcMetaUrl' },
  banner: { js: '(function (exports, require, module, __svcImport, __svcMetaUrl) {' },
  footer: { js: '})' },
  plugins: [externals],
  legalComments: 'none',
  logLevel: 'warning',
});

// The lazy libraries' import()s become the loader's (shared/code-cache.ts: vm.Script has no import() on Node 20).
let text = result.outputFiles[0].text;
text = text.replace(/\bimport\(("[^"./][^"]*")\)/g, (whole, spec) =>
  LAZY.has(packageOf(JSON.parse(spec))) ? `__svcImport(${spec})` : whole,
);
// (esbuild prints string literals in double quotes; a single-quoted import('…') left is a comment.)
const left = text.match(/\bimport\("[^"]*"\)/g);
if (left) throw new Error(`build-daemon: an import() the loader does not provide: ${left.join(', ')}`);

const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
writeFileSync(new URL(`daemon-${hash}.cjs`, outdir), text);

await build({
  absWorkingDir: root.pathname,
  entryPoints: ['daemon/bundled-main.ts'],
  outfile: 'dist/daemon-bundle/main.js',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  define: { SVC_DAEMON_BUNDLE: JSON.stringify(`daemon-${hash}.cjs`) },
  logLevel: 'warning',
});
