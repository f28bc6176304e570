/**
 * What the CLI may read from its own stored JWT without verifying it: the e-mail and the kind of
 * session, for defaults and messages only. The daemon checks every token; nothing here is trusted.
 */
export function readTokenClaims(token: string | null): { email?: string; typ?: string; sid?: string } {
  if (!token) return {};
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof payload === 'object' && payload ? payload : {};
  } catch {
    return {};
  }
}
