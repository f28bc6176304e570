import type { ConfigFile } from './config-file.js';

/**
 * A named profile: where the platform is (a fixed URL, or a local daemon found through its data
 * folder, whose lock file gives the URL and whose operator-token file the operator token), and,
 * in the credential store under its name, the login and keys. Keying by profile rather than by
 * URL is what keeps a login across `svc daemon start --port 0` and any port change.
 */
export interface Profile {
  url?: string;
  data_dir?: string;
}

export const DEFAULT_PROFILE = 'default';
const PROFILES = 'profiles';
const CURRENT = 'current_profile';
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const validProfileName = (name: string): boolean => NAME.test(name);

export function readProfiles(config: ConfigFile): Record<string, Profile> {
  const stored = config.get<Record<string, Profile>>(PROFILES);
  return { [DEFAULT_PROFILE]: {}, ...(stored && typeof stored === 'object' ? stored : {}) };
}

export function writeProfile(config: ConfigFile, name: string, profile: Profile): void {
  const stored = config.get<Record<string, Profile>>(PROFILES) ?? {};
  config.set(PROFILES, { ...stored, [name]: profile });
}

export function deleteProfile(config: ConfigFile, name: string): void {
  const stored = { ...(config.get<Record<string, Profile>>(PROFILES) ?? {}) };
  delete stored[name];
  config.set(PROFILES, stored);
  if (config.get(CURRENT) === name) config.delete(CURRENT);
}

export const currentProfileName = (config: ConfigFile): string => config.get<string>(CURRENT) ?? DEFAULT_PROFILE;
export const setCurrentProfile = (config: ConfigFile, name: string): void => config.set(CURRENT, name);

/** Where the profile in use was named: shown by `svc auth status` and `svc profile list`. */
export type ProfileSource = '--profile' | 'SVC_PROFILE' | '--url' | 'SVC_URL' | 'svc profile use' | 'default';

/**
 * The profile a command uses: --profile, SVC_PROFILE, the profile whose URL is the --url /
 * SVC_URL given, the one `svc profile use` chose, else `default`.
 */
export function selectProfile(
  config: ConfigFile,
  flags: { profile?: string; url?: string },
  env: Record<string, string | undefined>,
): { name: string; source: ProfileSource } {
  if (flags.profile) return { name: flags.profile, source: '--profile' };
  if (env.SVC_PROFILE) return { name: env.SVC_PROFILE, source: 'SVC_PROFILE' };
  const given = flags.url ?? env.SVC_URL;
  if (given) {
    const match = Object.entries(readProfiles(config)).find(([, p]) => p.url && sameOrigin(p.url, given));
    if (match) return { name: match[0], source: flags.url ? '--url' : 'SVC_URL' };
  }
  const current = config.get<string>(CURRENT);
  return current ? { name: current, source: 'svc profile use' } : { name: DEFAULT_PROFILE, source: 'default' };
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
