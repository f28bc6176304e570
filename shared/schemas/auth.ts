import * as z from 'zod/mini';
import { codeField, displayNameField, emailField, localeField, passwordField, timezoneField } from './auth-fields.js';

/**
 * Request bodies of the account routes (spec §4: signup, verify, login, password, profile,
 * sessions, e-mail change): one definition, validated by the daemon's routes (zod/mini, see keys.ts).
 */
export const signupBody = z.object({
  email: emailField,
  password: passwordField,
  invite_code: z
    .string({ message: 'invite_code is required' })
    .check(z.trim(), z.minLength(1, 'invite_code is required'), z.maxLength(64, 'is too long')),
});
export const verifyBody = z.object({ email: emailField, code: codeField });
export const resendCodeBody = z.object({ email: z.optional(emailField) });
export const loginBody = z.object({ email: emailField, password: passwordField });

export const forgotPasswordBody = z.object({ email: emailField });
export const resetPasswordBody = z.object({
  token: z
    .string({ message: 'token is required' })
    .check(z.trim(), z.minLength(1, 'token is required'), z.maxLength(256, 'is too long')),
  password: passwordField,
});
export const changePasswordBody = z.object({ current_password: passwordField, new_password: passwordField });

/** Unknown fields are refused, so a typo (`displayname`) is an error rather than a silent no-op. */
export const profileBody = z
  .strictObject({
    display_name: z.optional(z.nullable(displayNameField)),
    timezone: z.optional(z.nullable(timezoneField)),
    locale: z.optional(z.nullable(localeField)),
  })
  .check(z.refine((b: object) => Object.keys(b).length > 0, 'send at least one of display_name, timezone, locale'));
export const welcomeNameBody = z.object({ name: displayNameField });
export const avatarBody = z.object({ avatar: z.nullable(z.string({ message: 'avatar must be a data URL or null' })) });

export const revokeSessionBody = z.object({
  session_id: z.string({ message: 'session_id is required' }).check(z.trim(), z.minLength(1), z.maxLength(128)),
});

export const emailChangeBeginBody = z.object({ new_email: emailField, password: passwordField });
export const emailChangeFinishBody = z.object({ code: codeField });
