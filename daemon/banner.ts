import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatOffset } from '../shared/durations.js';
import { resolveDataDir } from '../shared/paths.js';
import { browserOrigins } from './auth/browser-origins.js';
import type { Deps } from './deps.js';
import { redactDatabaseUrl } from './store/postgres/connect.js';

/**
 * What `svc daemon start --foreground` prints once it listens. CONTRACT §2: with --port 0 the
 * first line names the port picked, with --json too; with `json`, the lines after the first are
 * one JSON object instead of the words for people.
 */
export function formatBanner(
  daemon: { url: string; deps: Pick<Deps, 'config' | 'devClock'>; testSettings: string[] },
  invite: string,
  json: boolean,
): string {
  const dataDir = daemon.deps.config.dataDir;
  const consoleUrl = browserOrigins(daemon.deps.config).consoleUrl;
  return [
    `listening on ${daemon.url}`,
    ...(json
      ? [
          JSON.stringify({
            ok: true,
            url: daemon.url,
            console_url: consoleUrl,
            data_dir: dataDir,
            invite_code: invite,
            pid: process.pid,
          }),
        ]
      : [
          `data folder: ${dataDir}`,
          ...(daemon.deps.config.databaseUrl
            ? [
                `database: ${redactDatabaseUrl(daemon.deps.config.databaseUrl)}  (team mode: everything is stored there)`,
              ]
            : []),
          ...(daemon.deps.devClock?.offset()
            ? [
                `clock: ${formatOffset(daemon.deps.devClock.offset())} ahead ('svc dev clock status'; 'svc dev seed --reset' clears it)`,
              ]
            : []),
          ...(daemon.testSettings.length
            ? [`WARNING: test settings in use (${daemon.testSettings.join(', ')}): never serve real users with them`]
            : []),
          `invite code: ${invite}  (single use; 'svc admin invite' makes more)`,
          ...nextSteps(dataDir, invite),
          // localhost, not the IP: browsers refuse an IP address as a passkey's relying party (docs/console.md).
          `web console: ${consoleUrl}  (or: ${cliCommand()} login --web)`,
        ]),
    '',
  ].join('\n');
}

/**
 * The banner's next step, pasteable verbatim in any folder: the CLI by its absolute path (`npx svc`
 * would fetch an unrelated npm package; `svc` needs `npm link` first), and for a data folder that
 * is not the default one, a profile naming it once, through which every command finds the daemon.
 */
const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const cliCommand = () => `node ${shellQuote(fileURLToPath(new URL('../cli/svc.cjs', import.meta.url)))}`;

function nextSteps(dataDir: string, invite: string): string[] {
  const q = shellQuote;
  const cli = cliCommand();
  const signup = `${cli} signup --invite ${invite}`;
  if (resolve(dataDir) === resolve(resolveDataDir(undefined, { ...process.env, SVC_DATA_DIR: undefined })))
    return [`next: in another terminal, run  ${signup}`];
  return [
    `next: in another terminal, run  ${cli} profile add local --data ${q(resolve(dataDir))} --use`,
    `      then  ${signup}`,
  ];
}
