import { readLastUrl, readLock, processIsAlive } from '../shared/lock-file.js';
import { DEFAULT_URL, resolveConfigDir, resolveDataDir } from '../shared/paths.js';
import { createApiClient, type ApiClient } from './api-client.js';
import { createCredentialStore, accounts, type CredentialStore } from './credentials/index.js';
import { guardOrigin } from './credentials/origin-guard.js';
import { bindingKey, companyKey, profileSecretNames, scopeCredentials } from './credentials/profile-scope.js';
import { createConfigFile, type ConfigFile } from './config-file.js';
import { UsageError } from './errors.js';
import { pickFields } from './json-fields.js';
import { DEFAULT_PROFILE, readProfiles, selectProfile, type Profile, type ProfileSource } from './profiles.js';
import { unreachableDaemon, type UrlOrigin } from './unreachable.js';

export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

export interface GlobalOptions {
  /** `--json` (true) or `--json id,name` (only those fields). */
  json?: boolean | string;
  url?: string;
  profile?: string;
}

/**
 * What every command's run function gets: streams, environment, the profile, the resolved daemon
 * URL and, built only when first asked for, the API client, the credential store and the config.
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
  /** The profile in use, and where it was named. */
  profile: { name: string; source: ProfileSource };
  /** The credential-store scope of the profile (`profile:<name>`). */
  scope: string;
  /** True when --url or SVC_URL named the daemon (else the profile, a lock file or the default did). */
  urlGiven: boolean;
  url(): string;
  api(): ApiClient;
  /** The profile's view of the credential store (see credentials/profile-scope.ts). */
  credentials(): CredentialStore;
  config(): ConfigFile;
  /** The data folder of a local daemon (for its URL and operator token): --data, SVC_DATA_DIR, the profile's, the default. */
  dataDir(flag?: string): string;
  now(): number;
  out(line?: string): void;
  err(line: string): void;
  /** JSON on stdout; with `--json a,b` only those fields (of the object, or of each element of an array). */
  printJson(value: unknown): void;
  /** What every list command prints under --json: a bare array of rows. */
  printList(rows: unknown[]): void;
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
  const rawConfig = once(() => options.overrides?.config?.() ?? createConfigFile(configDir));
  const profile = selectProfile(rawConfig(), globals, env);
  const scope = `profile:${profile.name}`;
  const record = once((): Profile => {
    const found = readProfiles(rawConfig())[profile.name];
    if (!found)
      throw new UsageError(
        `no profile '${profile.name}' (named by ${profile.source})`,
        "list them with 'svc profile list', add one with 'svc profile add <name> --url <url>'",
      );
    return found;
  });
  const dataDir = (flag?: string) => flag ?? env.SVC_DATA_DIR ?? record().data_dir ?? resolveDataDir(undefined, env);
  // A local daemon is found through its data folder's lock; once stopped, through the URL it last
  // used, so a refused connection names that address rather than a default port it never had.
  const target = once((): { url: string; origin: UrlOrigin } => {
    const given = globals.url ?? env.SVC_URL;
    if (given) return { url: given, origin: { from: 'given' } };
    const fixed = record().url;
    if (fixed) return { url: fixed, origin: { from: 'profile', profile: profile.name } };
    const dir = dataDir();
    const lastUrl = readLastUrl(dir);
    return {
      url: localDaemonUrl(dir) ?? lastUrl ?? DEFAULT_URL,
      origin: { from: 'folder', profile: profile.name, dir, lastUrl },
    };
  });
  const url = once(() => target().url.replace(/\/+$/, ''));
  const baseStore = once(
    () =>
      options.overrides?.credentials?.() ??
      createCredentialStore({ configDir, env, warn: (l) => ctx.err(l), openKeychain: options.openKeychain }),
  );
  const fields =
    typeof globals.json === 'string' && globals.json.trim()
      ? globals.json
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean)
      : null;
  const write = (value: unknown) =>
    void io.stdout.write(JSON.stringify(fields ? pickFields(value, fields) : value, null, 2) + '\n');
  const ctx: CliContext = {
    io,
    env,
    json: Boolean(globals.json),
    color: Boolean(io.stdout.isTTY) && env.NO_COLOR === undefined && env.TERM !== 'dumb',
    interactive: Boolean(io.stdout.isTTY && io.stdin.isTTY) && !env.CI,
    configDir,
    profile,
    scope,
    urlGiven: Boolean(globals.url ?? env.SVC_URL),
    url,
    credentials: once(() => {
      const scoped = scopeCredentials(baseStore(), scope, url);
      const config = rawConfig();
      return guardOrigin(scoped, {
        profile: profile.name,
        target: url,
        profileUrl: record().url,
        binding: {
          get: () => config.get<string>(bindingKey(scope)),
          set: (o) => (o ? config.set(bindingKey(scope), o) : config.delete(bindingKey(scope))),
        },
        async forget() {
          const company = ctx.config().get<{ id: string }>(companyKey(scope));
          for (const name of profileSecretNames(scope, company?.id)) await scoped.delete(name);
        },
      });
    }),
    config: once(() => scopeConfig(rawConfig(), scope, url)),
    api:
      options.overrides?.api ??
      once(() =>
        createApiClient(
          url(),
          async () => env.SVC_TOKEN ?? (await ctx.credentials().get(accounts.token(scope))),
          unreachableDaemon(target().origin, env),
        ),
      ),
    dataDir,
    now: options.overrides?.now ?? (() => Date.now()),
    out: (line = '') => void io.stdout.write(line + '\n'),
    err: (line) => void io.stderr.write(line + '\n'),
    printJson: write,
    printList: (rows) => write(rows),
  };
  return ctx;
}

/** A daemon started on this machine (say with --port 0) is found through the lock file of its data folder. */
function localDaemonUrl(dir: string): string | undefined {
  const lock = readLock(dir);
  return lock?.url && processIsAlive(lock.pid) ? lock.url : undefined;
}

/** The config with the current Company filed under the profile; an old `company:<url>` entry moves there on first read. */
function scopeConfig(config: ConfigFile, scope: string, url: () => string): ConfigFile {
  const scoped = (key: string) => (key === `company:${url()}` ? companyKey(scope) : key);
  return {
    get<T>(key: string): T | undefined {
      const name = scoped(key);
      const found = config.get<T>(name);
      if (found !== undefined || name !== companyKey(scope)) return found;
      const old = config.get<T>(`company:${url()}`);
      if (old !== undefined) {
        config.set(name, old);
        config.delete(`company:${url()}`);
      }
      return old;
    },
    set: (key, value) => config.set(scoped(key), value),
    delete: (key) => config.delete(scoped(key)),
  };
}

export { DEFAULT_PROFILE };
