import { ALL_SCOPES } from '../../shared/scopes.js';

/**
 * The scopes an OAuth client may ask for: the very vocabulary of secret keys (shared/scopes.ts), so
 * a token's scopes go through the same permission check as a key's, and discovery's
 * `scopes_supported` lists them. A request that names none is granted all of them (narrowed on the
 * consent page, like a key made without `--scope`).
 */
export const OAUTH_SCOPES: readonly string[] = ALL_SCOPES;
