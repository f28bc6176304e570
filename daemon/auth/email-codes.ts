import { canonicalEmail } from '../../shared/email.js';
import { createHash, createHmac } from 'node:crypto';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import type { CodeAttempt, CodePurpose, CodeRecord } from '../store/types.js';

/**
 * E-mailed secrets (SECURITY.md): 6-digit codes from the CSPRNG, valid 10 minutes, stored as
 * HMAC-SHA256(server key, purpose ‖ email ‖ code) so a leaked data folder gives no usable code,
 * and a code is bound to the purpose and address it was sent for. Link tokens are 256 random bits,
 * drawn separately from the code (one cannot be derived from the other), stored as SHA-256.
 */
type CodeDeps = Pick<Deps, 'clock' | 'ids' | 'random' | 'stores' | 'secrets' | 'config'>;

export interface IssueCodeInput {
  purpose: CodePurpose;
  email: string;
  userId: string | null;
  /** Send a 6-digit code (default true). */
  withCode?: boolean;
  /** Also make a link token in the same row (magic link, reset link). */
  withLink?: boolean;
  /** Lifetime; default config.auth.codeTtlMs (10 min). */
  ttlMs?: number;
  data?: Record<string, unknown>;
}

export interface IssuedCode {
  code: string | null;
  linkToken: string | null;
  record: CodeRecord;
}

export async function issueEmailCode(deps: CodeDeps, input: IssueCodeInput): Promise<IssuedCode> {
  const now = deps.clock.now();
  const email = normalizeEmail(input.email);
  const code = input.withCode === false ? null : String(deps.random.int(0, 1_000_000)).padStart(6, '0');
  const linkToken = input.withLink ? deps.random.bytes(32).toString('base64url') : null;
  const record: CodeRecord = {
    id: deps.ids('code'),
    purpose: input.purpose,
    email,
    user_id: input.userId,
    code_hash: code ? hashCode(deps.secrets.codeKey, input.purpose, email, code) : null,
    link_hash: linkToken ? hashLinkToken(linkToken) : null,
    tries: 0,
    created_at: isoAt(now),
    expires_at: isoAt(now + (input.ttlMs ?? deps.config.auth.codeTtlMs)),
    ended_at: null,
    ...(input.data ? { data: input.data } : {}),
  };
  await deps.stores.codes.issue(record);
  return { code, linkToken, record };
}

/** Checks a typed code against the live row of (purpose, email); see CodeStore.consumeCode. */
export function consumeEmailCode(
  deps: CodeDeps,
  purpose: CodePurpose,
  email: string,
  code: string,
): Promise<CodeAttempt> {
  const normalized = normalizeEmail(email);
  // Anything but six digits is still a wrong try: it must count against the limit like any guess.
  const typed = /^\d{6}$/.test(code.trim()) ? code.trim() : 'x';
  return deps.stores.codes.consumeCode(
    purpose,
    normalized,
    hashCode(deps.secrets.codeKey, purpose, normalized, typed),
    isoAt(deps.clock.now()),
    deps.config.auth.codeMaxTries,
  );
}

export function consumeLinkToken(deps: CodeDeps, purpose: CodePurpose, token: string): Promise<CodeRecord | null> {
  return deps.stores.codes.consumeLink(purpose, hashLinkToken(token), isoAt(deps.clock.now()));
}

/**
 * E-mail addresses are compared in their canonical form (shared/email.ts). Routes validate the
 * address first (emailField), so the fallback (NFKC, trimmed, lower-cased) is only ever reached by
 * a stored address from before the normalisation, which stays as it was.
 */
export const normalizeEmail = (email: string) => {
  const check = canonicalEmail(email);
  return check.ok ? check.email : email.normalize('NFKC').trim().toLowerCase();
};

export function hashCode(key: Buffer, purpose: string, email: string, code: string): string {
  // Length-prefixed fields, so ("ab", "c") and ("a", "bc") never hash alike.
  const mac = createHmac('sha256', key);
  for (const part of [purpose, email, code]) mac.update(`${Buffer.byteLength(part)}:${part}`);
  return mac.digest('hex');
}

export const hashLinkToken = (token: string) => createHash('sha256').update(`link:${token}`).digest('hex');
