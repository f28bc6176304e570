import type { Deps } from '../deps.js';

/** What the authorization server needs of the daemon, and the scopes it may grant. */
export type OAuthDeps = Pick<Deps, 'config' | 'clock' | 'secrets' | 'stores' | 'log' | 'oauthFetch'> & {
  scopes: readonly string[];
};
