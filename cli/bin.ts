#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import type { CliIO } from './context.js';
import { bundleReportError, tryFastBundle } from './fast-bundle.js';
import { runAsProcess } from './process-run.js';

/**
 * The `svc` bin: package.json "bin" names dist/cli/svc.cjs, which scripts/build-cli.mjs builds from
 * this file as CommonJS. Why CommonJS: Node starts an ES module entry through its ESM loader, about
 * 8 ms of CPU before the first line runs, more than the rest of `svc --version`; a CommonJS entry
 * skips it. It answers --version, runs the fast bundle's commands (fast-bundle.ts), and hands every
 * other line to main.js, the ES module bundle, exactly as `node dist/cli/main.js` would run it.
 */
declare const SVC_BUNDLED_VERSION: string;

const loadMain = () => import('./main.js');

/** The completion scripts scripts/build-cli.mjs made from the command tree; null where there is none (tsc's build). */
function prebuiltCompletion(argv: string[]): string | null {
  if (argv.length !== 2 || argv[0] !== 'completion' || !['bash', 'zsh', 'fish'].includes(argv[1]!)) return null;
  try {
    return readFileSync(new URL(`./completions/${argv[1]}`, import.meta.url), 'utf8');
  } catch {
    return null;
  }
}

runAsProcess(
  async (argv, io, env) => {
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
      io.stdout.write(`${SVC_BUNDLED_VERSION}\n`);
      return 0;
    }
    const completion = prebuiltCompletion(argv);
    if (completion !== null) {
      io.stdout.write(completion);
      return 0;
    }
    const code = await tryFastBundle(argv, io, env, SVC_BUNDLED_VERSION);
    return code ?? (await loadMain()).main(argv, { io, env, path: 'esm' });
  },
  async (err: unknown, io: CliIO) => {
    const report = bundleReportError();
    return report ? report(err, io, process.env) : (await loadMain()).reportUncaught(err, io);
  },
);
