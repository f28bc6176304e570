import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './code-cache.js';
import type * as DaemonMain from './main.js';

/** The bundle's file name, `daemon-<content hash>.cjs`, written in by scripts/build-daemon.mjs. */
declare const SVC_DAEMON_BUNDLE: string;

/**
 * dist/daemon-bundle/main.js, what `svc daemon start --foreground` imports (scripts/build-daemon.mjs):
 * runs the daemon's one-file bundle with V8's code cache (code-cache.ts). The cache is named after
 * the bundle's content hash, so a rebuilt bundle never runs another build's compiled code.
 */
const file = fileURLToPath(new URL(`./${SVC_DAEMON_BUNDLE}`, import.meta.url));
const daemon = runWithCodeCache<typeof DaemonMain>(file, file.replace(/\.cjs$/, '.v8-cache'), (s) => import(s));

export const runDaemon: typeof DaemonMain.runDaemon = async (...args) => {
  await daemon.exports.runDaemon(...args);
  // After the banner (not counted in the start): the code of the whole start is compiled by now.
  setImmediate(() => daemon.saveCache());
};
