// Bundles the daemon (daemon/main.ts) with esbuild into dist/daemon-bundle/main.js, what
// `svc daemon start --foreground` runs (docs/performance.md, "Fourth pass"). Why: Node's ESM loader
// pays per file (resolve, stat, read, compile, link: roughly 1 ms each) and a start loaded ~430 of
// them (the daemon's own ~290, zod's ~100, Koa's small CommonJS packages); as one file it is one.
// Every package the start uses is inside the bundle. The libraries the daemon loads on first use
// (daemon/lazy-module.ts: wallet, passkeys, MCP, SMTP, PostgreSQL) stay imports from node_modules,
// and the daemon's own modules behind a dynamic import() become chunks beside main.js, so they stay
// lazy. The chunks sit in the same folder as main.js, one level under dist/ like dist/daemon/main.js,
// so paths relative to import.meta.url (../../package.json, ../cli/main.js) hold from every file.
// tsc's per-file dist/daemon/ stays for the tests that import modules in-process.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

const root = new URL('../', import.meta.url);
/** Loaded on first use (daemon/lazy-module.ts), or only in team mode: never part of a start. */
const LAZY = new Set(['ethers', 'siwe', '@simplewebauthn/server', 'nodemailer', 'pg', 'pg-native']);
const isLazy = (name) => LAZY.has(name) || name.startsWith('@modelcontextprotocol/');
rmSync(new URL('dist/daemon-bundle/', root), { recursive: true, force: true });

const externals = {
  name: 'svc-daemon-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return isLazy(name) ? { path: args.path, external: true } : undefined;
    });
  },
};

await build({
  absWorkingDir: root.pathname,
  entryPoints: { main: 'daemon/main.ts' },
  outdir: 'dist/daemon-bundle',
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Koa and its helpers are CommonJS: their require('node:…') calls need a require in an ES module.
  banner: {
    js: "import { createRequire as __svcRequire } from 'node:module'; const require = __svcRequire(import.meta.url);",
  },
  plugins: [externals],
  legalComments: 'none',
  logLevel: 'warning',
});
