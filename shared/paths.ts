import { createRequire } from 'node:module';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** $HOME, else os.homedir(): the os module is loaded only then, which the CLI's start skips (about 0.5 ms). */
const home = (env: Env) =>
  env.HOME || (createRequire(import.meta.url)('node:os') as typeof import('node:os')).homedir();

/** The daemon's data folder (CONTRACT §2): --data, $SVC_DATA_DIR, $XDG_DATA_HOME/svc, ~/.local/share/svc. */
export function resolveDataDir(flag: string | undefined, env: Env = process.env): string {
  if (flag) return flag;
  if (env.SVC_DATA_DIR) return env.SVC_DATA_DIR;
  if (env.XDG_DATA_HOME) return join(env.XDG_DATA_HOME, 'svc');
  return join(home(env), '.local', 'share', 'svc');
}

/** The CLI's config folder (CONTRACT §5): $SVC_CONFIG_DIR, $XDG_CONFIG_HOME/svc, ~/.config/svc. */
export function resolveConfigDir(env: Env = process.env): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'svc');
  return join(home(env), '.config', 'svc');
}

/** Files inside the data folder that both the daemon and the CLI know about. */
export const dataFiles = {
  lock: 'daemon.lock',
  /** The URL the folder's daemon last listened on; it outlives the lock, so a stopped daemon can be named. */
  lastUrl: 'daemon.url',
  log: 'daemon.log',
  operatorToken: 'operator-token',
  jwtSecret: 'jwt-secret',
} as const;

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7878;
export const DEFAULT_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
