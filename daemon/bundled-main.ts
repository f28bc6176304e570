import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runCachedScript } from '../shared/code-cache.js';
import type * as DaemonMain from './main.js';

/** The bundle's file name, `daemon-<content hash>.cjs`, written in by scripts/build-daemon.mjs. */
declare const SVC_DAEMON_BUNDLE: string;

/**
 * dist/daemon-bundle/main.js, what `svc daemon start --foreground` imports (scripts/build-daemon.mjs):
 * runs the daemon's one-file bundle with V8's code cache, kept in the user's cache folder as the
 * CLI's is (shared/code-cache.ts: owner and CRC checked, keyed by the bundle's content hash, so a
 * rebuilt bundle never runs another build's compiled code, and a read-only install still caches).
 */
const file = fileURLToPath(new URL(`./${SVC_DAEMON_BUNDLE}`, import.meta.url));
const daemon = runCachedScript<typeof DaemonMain>({
  file,
  env: process.env,
  build: SVC_DAEMON_BUNDLE.replace(/\.cjs$/, ''),
  name: 'daemon',
  require: createRequire(file),
  importModule: (specifier) => import(specifier),
});

export const runDaemon: typeof DaemonMain.runDaemon = async (...args) => {
  await daemon.exports.runDaemon(...args);
  // After the banner (not counted in the start): the code of the whole start is compiled by now.
  setImmediate(() => daemon.saveCache());
};
