/**
 * The scopes an OAuth client may ask for. A stand-in until the scope vocabulary that keys and
 * tokens share lands: then this becomes that list, and a token's scopes go through the same
 * permission check as a key's.
 */
export const OAUTH_SCOPES: readonly string[] = ['mcp'];
