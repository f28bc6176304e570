// Bundles the CLI (cli/main.ts) with esbuild into dist/cli/main.js, the ES module entry, with one lazy
// chunk per command in dist/cli-chunks/ (ESM splitting: `svc keys list` loads main.js, the keys
// chunk and the chunks they share, not every command). Why: Node's ESM loader pays per file, and
// zod alone is ~95 files; bundled and tree-shaken (shared/schemas/ use zod/mini) it is a few KB.
// Only zod and commander are bundled: every other package (ethers, Ink, the MCP SDK, the keychain's
// native addon, prompts) stays external and is imported from node_modules by the command that needs
// it. tsc's per-file output in dist/cli/ stays for the tests that import modules in-process; this
// build replaces dist/cli/main.js and adds dist/cli/fast.cjs (build-fast-bundle.mjs) and the `svc`
// bin, dist/cli/svc.cjs (docs/cli.md "How the CLI is built"). The chunk folder sits beside
// dist/cli/ (same depth), so paths relative to import.meta.url (../../package.json,
// ../cli/main.js, ../daemon-bundle/main.js) hold from main.js, from every chunk and from both scripts.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildFastBundle } from './build-fast-bundle.mjs';

const root = new URL('../', import.meta.url);
const BUNDLED = new Set(['zod', 'commander']);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
rmSync(new URL('dist/cli-chunks/', root), { recursive: true, force: true });

/** Packages other than BUNDLED stay imports; the daemon, started in-process by `svc daemon start`, is its own bundle (build-daemon.mjs). */
const externals = {
  name: 'svc-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
    });
    b.onResolve({ filter: /\/daemon\/main\.js$/ }, () => ({ path: '../daemon-bundle/main.js', external: true }));
  },
};

const fast = await buildFastBundle(root, externals, version);
const define = {
  SVC_BUNDLED_VERSION: JSON.stringify(version),
  SVC_FAST_COMMANDS: JSON.stringify(fast.commands.join(',')),
  SVC_FAST_BUNDLE_HASH: JSON.stringify(fast.hash),
};

await build({
  absWorkingDir: root.pathname,
  entryPoints: { 'cli/main': 'cli/main.ts' },
  outdir: 'dist',
  chunkNames: 'cli-chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externals],
  // `svc --version` prints this without reading package.json (cli/main.ts).
  define,
  // commander is CommonJS: its require('node:events') needs a require in an ES module.
  banner: {
    js: "import { createRequire as __svcRequire } from 'node:module'; const require = __svcRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(new URL('dist/cli/main.js', root), 0o755);

// The `svc` bin, dist/cli/svc.cjs (cli/bin.ts): CommonJS, so that Node starts it without its ESM
// loader; it holds only the fast bundle's loader and imports main.js for every other line.
await build({
  absWorkingDir: root.pathname,
  entryPoints: ['cli/bin.ts'],
  outfile: 'dist/cli/svc.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  plugins: [
    externals,
    {
      name: 'svc-main',
      setup: (b) => b.onResolve({ filter: /^\.\/main\.js$/ }, (a) => ({ path: a.path, external: true })),
    },
  ],
  define: { ...define, 'import.meta.url': '__svcMetaUrl' },
  banner: { js: '"use strict";const __svcMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(new URL('dist/cli/svc.cjs', root), 0o755);

// `svc completion bash|zsh|fish` prints a script made from the whole command tree, which means
// loading every command (~0.7 s, and `eval "$(svc completion bash)"` runs at every shell start).
// The tree is the build's, so the scripts are made here once; the bin prints the file (cli/bin.ts).
mkdirSync(new URL('dist/cli/completions/', root), { recursive: true });
for (const shell of ['bash', 'zsh', 'fish']) {
  const script = execFileSync(
    process.execPath,
    [fileURLToPath(new URL('dist/cli/main.js', root)), 'completion', shell],
    {
      env: { ...process.env, SVC_KEYCHAIN: 'off', SVC_CODE_CACHE: 'off' },
      encoding: 'utf8',
    },
  );
  writeFileSync(new URL(`dist/cli/completions/${shell}`, root), script);
}
