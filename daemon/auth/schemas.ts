import { z } from 'zod';

/** Field schemas shared by the account routes. Lengths are capped so no field can cost much to process. */
export const emailField = z
  .string({ message: 'email is required' })
  .trim()
  .max(254, 'must be at most 254 characters')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address');

/** Policy (12–128) is checked by passwordProblem; this cap only keeps junk away from it. */
export const passwordField = z.string({ message: 'password is required' }).min(1, 'password is required').max(4096, 'is too long');

/** Any short string: a malformed code still counts as a wrong try (email-codes.ts). */
export const codeField = z.string({ message: 'code is required' }).trim().min(1, 'code is required').max(64, 'is too long');

export const displayNameField = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(80, 'must be at most 80 characters')
  // Control characters in a name end up in e-mails and terminals; refuse them.
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must not contain control characters');
