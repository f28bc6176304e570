import { z } from 'zod';
import { canonicalEmail, EMAIL_MAX } from '../../shared/email.js';

/** Field schemas shared by the account routes. Lengths are capped so no field can cost much to process. */
/** Checked by THE normalisation (shared/email.ts); routes then read the canonical form with normalizeEmail. */
export const emailField = z
  .string({ message: 'email is required' })
  .trim()
  .max(EMAIL_MAX * 2, `must be at most ${EMAIL_MAX} characters`)
  .superRefine((value, ctx) => {
    const check = canonicalEmail(value);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: check.reason });
  });

/** Policy (12–128) is checked by passwordProblem; this cap only keeps junk away from it. */
export const passwordField = z
  .string({ message: 'password is required' })
  .min(1, 'password is required')
  .max(4096, 'is too long');

/** Any short string: a malformed code still counts as a wrong try (email-codes.ts). */
export const codeField = z
  .string({ message: 'code is required' })
  .trim()
  .min(1, 'code is required')
  .max(64, 'is too long');

export const displayNameField = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(80, 'must be at most 80 characters')
  // Control characters in a name end up in e-mails and terminals; refuse them.
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must not contain control characters');
