import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * THE e-mail normalisation: every route that takes an address (signup, login, login code, forgot
 * password, e-mail change, operator tier, mail filter) reads it through `canonicalEmail`, so one
 * mailbox is one account (otherwise a trailing-dot domain, a quoted local part, or punycode vs
 * Unicode spellings of a domain would each make a second account for the same mailbox).
 *
 * - NFKC, trimmed, lower-cased (the local part too: no mail system we deliver to is case-sensitive,
 *   and two accounts differing only by case are a phishing aid);
 * - invisible characters are refused, not stripped: zero-width spaces and joiners, the soft hyphen,
 *   BOM, bidi controls and every other control or format character (they make look-alike addresses);
 * - a quoted local part that needs no quotes (`"ada"`) is unquoted; one that does (`"a b"`) is refused;
 * - the domain loses one trailing dot (`example.com.` is the same host), goes through UTS #46
 *   (`domainToASCII`, which refuses invalid labels), and is stored in its Unicode form, so
 *   `xn--bcher-kva.example` and `bücher.example` are the same address. Non-ASCII local parts and
 *   domains (RFC 6531) are accepted alike everywhere.
 */
export type EmailCheck = { ok: true; email: string } | { ok: false; reason: string };

export const EMAIL_MAX = 254;
// Control (Cc), format (Cf: zero-width, soft hyphen, bidi, BOM), separators other than ASCII space, surrogates, private use.
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0]/u;
// RFC 5322 atext, plus any non-ASCII letter, mark or number (RFC 6531).
const ATOM = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+$/u;

export function canonicalEmail(input: string): EmailCheck {
  const text = input.normalize('NFKC').trim();
  if (text.length === 0) return { ok: false, reason: 'is required' };
  if (text.length > EMAIL_MAX * 2) return { ok: false, reason: `must be at most ${EMAIL_MAX} characters` };
  if (INVISIBLE.test(text))
    return { ok: false, reason: 'must not contain invisible or control characters (zero-width spaces, soft hyphens…)' };
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return { ok: false, reason: 'must be an e-mail address' };
  const local = unquote(text.slice(0, at));
  if (local === null) return { ok: false, reason: 'must not have a quoted local part that needs the quotes' };
  if (!local.split('.').every((atom) => ATOM.test(atom))) return { ok: false, reason: 'must be an e-mail address' };
  const domain = text.slice(at + 1).replace(/\.$/, '');
  if (domain.startsWith('[')) return { ok: false, reason: 'must name a domain, not an address literal' };
  const ascii = domainToASCII(domain);
  if (!ascii?.includes('.') || ascii.split('.').some((label) => label.length === 0))
    return { ok: false, reason: 'must be an e-mail address with a valid domain' };
  const email = `${local.toLowerCase()}@${domainToUnicode(ascii)}`;
  if (email.length > EMAIL_MAX) return { ok: false, reason: `must be at most ${EMAIL_MAX} characters` };
  return { ok: true, email };
}

/** `"ada.l"` → `ada.l`; a local part without quotes is returned as is; null when the quotes are needed. */
function unquote(local: string): string | null {
  if (!local.startsWith('"')) return local;
  if (local.length < 2 || !local.endsWith('"')) return null;
  const inner = local.slice(1, -1);
  return inner.length > 0 && inner.split('.').every((atom) => ATOM.test(atom)) ? inner : null;
}

/**
 * The forms an existing account may be stored under: the canonical one first, then what earlier
 * releases kept (only NFKC, trimmed, lower-cased), so accounts made with a trailing dot or a
 * punycode domain still log in.
 */
export function emailLookupKeys(input: string): string[] {
  const legacy = input.normalize('NFKC').trim().toLowerCase();
  const canonical = canonicalEmail(input);
  return canonical.ok && canonical.email !== legacy ? [canonical.email, legacy] : [legacy];
}
