import { createHash } from 'node:crypto';
import { canonicalJson } from '../store/audit/chain.js';

/**
 * What an entry keeps of a call's arguments: their names and a SHA-256 of their canonical JSON,
 * never the values. Two calls with the same arguments have the same digest, so an owner who has
 * the arguments (from the agent's own log, say) can match them to an entry, while the trail itself
 * holds no message text, no token and no secret an argument carried.
 */
export interface ArgumentDigest {
  fields: string[];
  sha256: string;
}

export function digestArguments(args: unknown): ArgumentDigest | null {
  if (args === undefined || args === null) return null;
  const fields = typeof args === 'object' && !Array.isArray(args) ? Object.keys(args as object).sort() : [];
  let text: string;
  try {
    text = canonicalJson(args);
  } catch {
    // A value JSON cannot hold (a cycle): the call itself refuses it; the entry keeps its names only.
    text = '';
  }
  return { fields, sha256: createHash('sha256').update(text).digest('hex') };
}
