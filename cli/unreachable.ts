import { resolveDataDir } from '../shared/paths.js';
import { FailedError } from './errors.js';

/** Where the CLI's daemon URL came from: a flag or SVC_URL, the profile's fixed URL, or a data folder. */
export type UrlOrigin =
  | { from: 'given' }
  | { from: 'profile'; profile: string }
  | { from: 'folder'; profile: string; dir: string; lastUrl: string | null };

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The sentence for a daemon that does not answer, naming what the user can act on: the profile,
 * and for a local daemon its data folder and the exact start command (with `--data` unless the
 * folder is the default one, which a bare `svc daemon start` would use anyway).
 */
export function unreachableDaemon(
  origin: UrlOrigin,
  env: Record<string, string | undefined>,
): (base: string, cause: string) => Error {
  return (base, cause) => {
    const at = `cannot reach the svc daemon at ${base} (${cause})`;
    if (origin.from === 'given')
      return new FailedError(
        at,
        "start one with 'svc daemon start', or point --url / SVC_URL (or a profile: 'svc profile add') at a running one",
      );
    const profile = origin.profile === 'default' ? '' : ` of profile '${origin.profile}'`;
    if (origin.from === 'profile')
      return new FailedError(
        `${at}, the URL${profile || ' of the profile'}`,
        "is it running? 'svc profile list' shows where each profile points",
      );
    const defaultDir = resolveDataDir(undefined, { ...env, SVC_DATA_DIR: undefined });
    const data = origin.dir === defaultDir ? '' : ` --data ${quote(origin.dir)}`;
    const where = origin.lastUrl ? 'where the daemon of its data folder last listened' : 'the default address';
    return new FailedError(
      `${at}: no svc daemon is running on the data folder ${origin.dir}${profile} (${base} is ${where})`,
      `start it with 'svc daemon start${data}'`,
    );
  };
}
