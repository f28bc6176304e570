import { readLock, processIsAlive } from '../daemon/lock.js';
import { DEFAULT_URL, resolveConfigDir, resolveDataDir } from '../shared/paths.js';
import { createApiClient, type ApiClient } from './api-client.js';
import { createCredentialStore, accounts, type CredentialStore } from './credentials/index.js';
import { createConfigFile, type ConfigFile } from './config-file.js';

export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

export interface GlobalOptions {
  json?: boolean;
  url?: string;
}

/**
 * What every command's run function gets: streams, environment, the resolved daemon URL and,
 * built only when first asked for, the API client, the credential store and the config file.
 */
export interface CliContext {
  io: CliIO;
  env: Record<string, string | undefined>;
  json: boolean;
  /** Colours only on a terminal, and never with NO_COLOR. */
  color: boolean;
  /** Prompts, spinners and live views only when both ends are a terminal. */
  interactive: boolean;
  configDir: string;
  /** True when --url or SVC_URL named the daemon (else a local daemon's lock file or the default did). */
  urlGiven: boolean;
  url(): string;
  api(): ApiClient;
  credentials(): CredentialStore;
  config(): ConfigFile;
  /** The data folder of a local daemon (for the operator token). */
  dataDir(flag?: string): string;
  now(): number;
  out(line?: string): void;
  err(line: string): void;
  printJson(value: unknown): void;
}

export interface ContextOptions {
  io?: CliIO;
  env?: Record<string, string | undefined>;
  globals?: GlobalOptions;
  /** Tests inject fakes here. */
  overrides?: Partial<Pick<CliContext, 'api' | 'credentials' | 'config' | 'now'>>;
  /** Tests inject a keychain (a failing one, say) behind the real credential store. */
  openKeychain?: () => Promise<CredentialStore>;
}

export function createCliContext(options: ContextOptions = {}): CliContext {
  const io = options.io ?? { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
  const env = options.env ?? process.env;
  const globals = options.globals ?? {};
  const configDir = resolveConfigDir(env);
  const once = <T>(make: () => T) => {
    let value: T | undefined;
    return () => (value ??= make());
  };

  const url = once(() => (globals.url ?? env.SVC_URL ?? localDaemonUrl(env) ?? DEFAULT_URL).replace(/\/+$/, ''));
  const ctx: CliContext = {
    io,
    env,
    json: Boolean(globals.json),
    color: Boolean(io.stdout.isTTY) && env.NO_COLOR === undefined && env.TERM !== 'dumb',
    interactive: Boolean(io.stdout.isTTY && io.stdin.isTTY) && !env.CI,
    configDir,
    urlGiven: Boolean(globals.url ?? env.SVC_URL),
    url,
    credentials: options.overrides?.credentials ?? once(() => createCredentialStore({ configDir, env, warn: (l) => ctx.err(l), openKeychain: options.openKeychain })),
    config: options.overrides?.config ?? once(() => createConfigFile(configDir)),
    api:
      options.overrides?.api ??
      once(() => createApiClient(url(), async () => env.SVC_TOKEN ?? (await ctx.credentials().get(accounts.token(url()))))),
    dataDir: (flag) => resolveDataDir(flag, env),
    now: options.overrides?.now ?? (() => Date.now()),
    out: (line = '') => void io.stdout.write(line + '\n'),
    err: (line) => void io.stderr.write(line + '\n'),
    printJson: (value) => void io.stdout.write(JSON.stringify(value, null, 2) + '\n'),
  };
  return ctx;
}

/** A daemon started on this machine with the default data folder (say with --port 0) is found through its lock file. */
function localDaemonUrl(env: Record<string, string | undefined>): string | undefined {
  const lock = readLock(resolveDataDir(undefined, env));
  return lock?.url && processIsAlive(lock.pid) ? lock.url : undefined;
}
