// Bundles the CLI (cli/main.ts) with esbuild into dist/cli/main.js, the `svc` bin, with one lazy
// chunk per command in dist/cli-chunks/ (ESM splitting: `svc keys list` loads main.js, the keys
// chunk and the chunks they share, not every command). Why: Node's ESM loader pays per file, and
// zod alone is ~95 files; bundled and tree-shaken (shared/schemas/ use zod/mini) it is a few KB.
// Only zod and commander are bundled: every other package (ethers, Ink, the MCP SDK, the keychain's
// native addon, prompts) stays external and is imported from node_modules by the command that needs
// it. tsc's per-file output in dist/cli/ stays for the tests that import modules in-process; this
// build replaces only dist/cli/main.js. The chunk folder sits beside dist/cli/ (same depth), so
// paths relative to import.meta.url (../../package.json, ../cli/main.js, ../daemon/main.js) hold
// from main.js and from every chunk alike.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const BUNDLED = new Set(['zod', 'commander']);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
rmSync(new URL('dist/cli-chunks/', root), { recursive: true, force: true });

/** Packages other than BUNDLED stay imports; the daemon, started in-process by `svc daemon start`, stays tsc's. */
const externals = {
  name: 'svc-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return BUNDLED.has(name) ? undefined : { path: args.path, external: true };
    });
    b.onResolve({ filter: /\/daemon\/main\.js$/ }, () => ({ path: '../daemon/main.js', external: true }));
  },
};

const fast = await buildFastBundle();

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
  define: {
    SVC_BUNDLED_VERSION: JSON.stringify(version),
    SVC_FAST_COMMANDS: JSON.stringify(fast.commands.join(',')),
    SVC_FAST_BUNDLE_HASH: JSON.stringify(fast.hash),
  },
  // commander is CommonJS: its require('node:events') needs a require in an ES module.
  banner: {
    js: "import { createRequire as __svcRequire } from 'node:module'; const require = __svcRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(new URL('dist/cli/main.js', root), 0o755);

/**
 * The fast bundle, dist/cli/fast.cjs (cli/fast-main.ts; docs/performance.md "CLI start time"):
 * the same sources as one CommonJS script, which cli/fast-bundle.ts compiles with a V8 code cache.
 * A script cannot import an ES module statically, so only the commands whose whole graph (static
 * and lazy imports) needs no package except through `import()` may run in it; the others (Ink,
 * ethers, the MCP SDK…) always run in the ESM bundle. `import()` and `import.meta.url` become the
 * wrapper's __svcImport and __svcMetaUrl (fast-bundle.ts provides both).
 */
async function buildFastBundle() {
  const result = await build({
    absWorkingDir: root.pathname,
    entryPoints: ['cli/fast-main.ts'],
    outfile: 'dist/cli/fast.cjs',
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    plugins: [externals],
    define: { 'import.meta.url': '__svcMetaUrl' },
    banner: { js: '"use strict";' },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    write: false,
  });
  const code = result.outputFiles[0].text.replace(/\bimport\((?=")/g, '__svcImport(');
  if (/\bimport\(/.test(code)) throw new Error('fast.cjs: an import() the wrapper does not provide');
  writeFileSync(new URL('dist/cli/fast.cjs', root), code);
  const inputs = result.metafile.inputs;
  const needsPackage = (file) =>
    inputs[file].imports.some((i) => i.external && i.kind !== 'dynamic-import' && !i.path.startsWith('node:'));
  const blocked = (file, seen) => {
    if (seen.has(file) || !inputs[file]) return false;
    seen.add(file);
    return needsPackage(file) || inputs[file].imports.some((i) => !i.external && blocked(i.path, seen));
  };
  // Which module each command loads: read from the loaders of cli/commands/index.ts (compiled by then).
  const { ENTRIES } = await import(new URL('dist/cli/commands/index.js', root).href);
  const modulesOf = (load) => {
    const found = [...load.toString().matchAll(/import\(["']\.\/([\w-]+\/[\w-]+)\.js["']\)/g)];
    if (found.length === 0) throw new Error(`fast.cjs: cannot tell which module loads ${load}`);
    return found.map((m) => `cli/commands/${m[1]}.ts`);
  };
  const commands = [];
  for (const e of ENTRIES) {
    const loads = e.verbs ? Object.entries(e.verbs).map(([verb, load]) => [`${e.name} ${verb}`, load]) : [[e.name, e.load]];
    for (const [name, load] of loads) if (!modulesOf(load).some((m) => blocked(m, new Set()))) commands.push(name);
  }
  return { commands, hash: createHash('sha256').update(code).digest('hex').slice(0, 16) };
}
