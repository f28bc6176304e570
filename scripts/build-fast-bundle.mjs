// The fast bundle, dist/cli/fast.cjs (cli/fast-main.ts; docs/performance.md "CLI start time"): the
// CLI's sources as one CommonJS script, which cli/fast-bundle.ts compiles with a V8 code cache
// (Node 20 has no code cache for ES modules). A script cannot import an ES module statically, so
// only the commands whose whole graph (static and lazy imports) needs no package except through
// `import()` may run in it; the others (Ink, ethers, the MCP SDK, cron-parser…) always run in the
// ESM bundle, and so do `svc completion` (it prints commander's tree) and `svc admin export|import`
// and `svc admin audit verify` (they carry the storage engines, 150 KB, for a rare operator command). Their modules are left
// out (a stub), which keeps the script, and what V8 reads at each start, small. `import()` and `import.meta.url` become the wrapper's __svcImport
// and __svcMetaUrl (fast-bundle.ts provides both). Returns the commands it may run and its hash.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';

const ESM_ONLY = new Set(['admin export', 'admin import', 'admin audit', 'completion']);

export async function buildFastBundle(root, externals, version) {
  const bundle = (plugins) =>
    build({
      absWorkingDir: root.pathname,
      entryPoints: ['cli/fast-main.ts'],
      outfile: 'dist/cli/fast.cjs',
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      plugins: [...plugins, externals],
      define: { 'import.meta.url': '__svcMetaUrl', SVC_BUNDLED_VERSION: JSON.stringify(version) },
      // The file is one function expression (what Node's CommonJS wrapper would add, plus the two
      // names below), so fast-bundle.ts compiles the text as read, with no copy of it.
      banner: { js: '(function (exports, require, module, __svcImport, __svcMetaUrl) {"use strict";' },
      footer: { js: '})' },
      // Less text for V8 to read at each start; names are kept (SVC_DEBUG stack traces stay readable).
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: 'none',
      logLevel: 'warning',
      metafile: true,
      write: false,
    });
  const { commands, left } = await sortCommands(root, (await bundle([])).metafile.inputs);
  // The left-out command modules: index.ts still names them, but main.ts never sends them here.
  const leaveOut = {
    name: 'svc-esm-only',
    setup(b) {
      b.onResolve({ filter: /^\.\/[\w-]+\/[\w-]+\.js$/ }, (args) => {
        const file = `cli/commands/${args.path.slice(2, -3)}.ts`;
        return args.importer.endsWith('cli/commands/index.ts') && left.has(file)
          ? { path: file, namespace: 'svc-esm-only' }
          : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'svc-esm-only' }, () => ({ contents: 'export {};', loader: 'js' }));
    },
  };
  const result = await bundle([leaveOut]);
  const code = result.outputFiles[0].text.replace(/\bimport\((?=")/g, '__svcImport(');
  if (/\bimport\(/.test(code)) throw new Error('fast.cjs: an import() the wrapper does not provide');
  writeFileSync(new URL('dist/cli/fast.cjs', root), code);
  return { commands, hash: createHash('sha256').update(code).digest('hex').slice(0, 16) };
}

/** Which commands the script may run, and the command modules to leave out of it. */
async function sortCommands(root, inputs) {
  const needsPackage = (file) =>
    inputs[file].imports.some((i) => i.external && i.kind !== 'dynamic-import' && !i.path.startsWith('node:'));
  const blocked = (file, seen) => {
    if (seen.has(file) || !inputs[file]) return false;
    seen.add(file);
    return needsPackage(file) || inputs[file].imports.some((i) => !i.external && blocked(i.path, seen));
  };
  // Which modules each command loads: read from the loaders of cli/commands/index.ts (compiled by then).
  const { ENTRIES } = await import(new URL('dist/cli/commands/index.js', root).href);
  const modulesOf = (load) => {
    const found = [...load.toString().matchAll(/import\(["']\.\/([\w-]+\/[\w-]+)\.js["']\)/g)];
    if (found.length === 0) throw new Error(`fast.cjs: cannot tell which module loads ${load}`);
    return found.map((m) => `cli/commands/${m[1]}.ts`);
  };
  const commands = [];
  const left = new Set();
  for (const e of ENTRIES) {
    const loads = e.verbs ? Object.entries(e.verbs).map(([verb, l]) => [`${e.name} ${verb}`, l]) : [[e.name, e.load]];
    for (const [name, load] of loads) {
      const modules = modulesOf(load);
      if (ESM_ONLY.has(name) || modules.some((m) => blocked(m, new Set()))) for (const m of modules) left.add(m);
      else commands.push(name);
    }
  }
  return { commands, left };
}
