import { UsageError } from '../errors.js';
import type { CredentialStore } from './store.js';

/** Where a profile's secrets may go, and the remote origin its login was made against (kept in the config). */
export interface OriginRules {
  profile: string;
  /** The URL this command talks to (--url, SVC_URL, the profile's, a local daemon's). */
  target: () => string;
  /** The profile's own URL; none for a local profile. */
  profileUrl?: string;
  binding: { get(): string | undefined; set(origin: string | undefined): void };
  /** Forgets the profile's secrets (its login, account key, current Company's key) before it moves to another origin. */
  forget(): Promise<void>;
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const isLoopback = (origin: string) => LOOPBACK.has(new URL(origin).hostname);

/**
 * A profile's login and keys are sent only where they were made, as gh sends a host's token only to
 * that host: a profile with a URL, to that URL's origin; a local profile, to this machine's daemons
 * (any loopback port: `--port 0` must not log anyone out) — or, once it logged in to a remote server
 * with --url / SVC_URL, to that server only. Before this guard, `svc --url https://elsewhere …` sent
 * the current profile's token to whatever server was named. Storing a secret for another server (a
 * login there) moves the local profile to it; reading one for any other server stops the command.
 */
export function guardOrigin(store: CredentialStore, rules: OriginRules): CredentialStore {
  const target = () => originOf(rules.target());
  const allowed = (origin: string | null): boolean => {
    if (origin === null) return false;
    if (rules.profileUrl) return origin === originOf(rules.profileUrl);
    const bound = rules.binding.get();
    return bound ? origin === bound : isLoopback(origin);
  };
  const refuse = (origin: string | null): never => {
    const home = rules.profileUrl ? originOf(rules.profileUrl) : (rules.binding.get() ?? 'this machine');
    throw new UsageError(
      `profile '${rules.profile}' is logged in to ${home}, not ${origin ?? rules.target()}: its credentials are not sent to another server`,
      `for that server add a profile: 'svc profile add <name> --url ${origin ?? '<url>'}', then 'svc login --profile <name>'`,
    );
  };
  return {
    ...store,
    async get(account) {
      const secret = await store.get(account);
      if (secret !== null && !allowed(target())) refuse(target());
      return secret;
    },
    async set(account, secret) {
      const origin = target();
      if (!allowed(origin)) {
        // A login made against another server without a profile for it (SVC_URL, --url): the local
        // profile now belongs there, and what it held for the last one is dropped, never sent on.
        if (rules.profileUrl || origin === null) refuse(origin);
        await rules.forget();
        rules.binding.set(isLoopback(origin!) ? undefined : origin!);
      }
      await store.set(account, secret);
    },
    delete: (account) => store.delete(account),
  };
}
