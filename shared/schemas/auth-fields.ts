import * as z from 'zod/mini';
import { canonicalEmail, EMAIL_MAX } from '../email.js';

/** Field schemas shared by the account routes. Lengths are capped so no field can cost much to process. */
/** Checked by THE normalisation (shared/email.ts); routes then read the canonical form with normalizeEmail. */
export const emailField = z.string({ message: 'email is required' }).check(
  z.trim(),
  z.maxLength(EMAIL_MAX * 2, `must be at most ${EMAIL_MAX} characters`),
  z.superRefine((value: string, ctx) => {
    const check = canonicalEmail(value);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.reason });
  }),
);

/** Policy (12–128) is checked by passwordProblem; this cap only keeps junk away from it. */
export const passwordField = z
  .string({ message: 'password is required' })
  .check(z.minLength(1, 'password is required'), z.maxLength(4096, 'is too long'));

/** Any short string: a malformed code still counts as a wrong try (email-codes.ts). */
export const codeField = z
  .string({ message: 'code is required' })
  .check(z.trim(), z.minLength(1, 'code is required'), z.maxLength(64, 'is too long'));

export const displayNameField = z.string().check(
  z.trim(),
  z.minLength(1, 'must not be empty'),
  z.maxLength(80, 'must be at most 80 characters'),
  // Control characters in a name end up in e-mails and terminals; refuse them.
  z.refine((s: string) => !/[\u0000-\u001f\u007f]/.test(s), 'must not contain control characters'),
);

export const timezoneField = z
  .string()
  .check(z.trim(), z.maxLength(64), z.refine(isTimeZone, 'must be an IANA time zone such as Europe/Paris or UTC'));

export const localeField = z
  .string()
  .check(z.trim(), z.maxLength(35), z.refine(isLocale, 'must be a BCP 47 language tag such as en-GB'));

/** A short trimmed string with bounds and zod's own messages: codes, tokens and names of the sign-in factors. */
export const boundedString = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}
