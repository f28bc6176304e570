import type { Middleware } from 'koa';
import { z } from 'zod';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { userOf } from '../http/user-guard.js';
import { validate } from '../http/validate.js';
import { presentUser } from '../me/view.js';
import { displayNameField } from './schemas.js';

const timezoneField = z
  .string()
  .trim()
  .max(64)
  .refine(isTimeZone, 'must be an IANA time zone such as Europe/Paris or UTC');

const localeField = z.string().trim().max(35).refine(isLocale, 'must be a BCP 47 language tag such as en-GB');

/** Unknown fields are refused, so a typo (`displayname`) is an error rather than a silent no-op. */
const profileBody = z
  .strictObject({
    display_name: displayNameField.nullable().optional(),
    timezone: timezoneField.nullable().optional(),
    locale: localeField.nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'send at least one of display_name, timezone, locale');

/** POST /api/auth/update-profile {display_name?, timezone?, locale?} → { ok, user }; null clears a field. */
export function updateProfile(deps: Deps): Middleware {
  return async (ctx) => {
    const { user } = userOf(ctx);
    const input = validate(profileBody, ctx.request.body);
    const updated = await deps.stores.users.update(user.id, (u) => {
      if (input.display_name !== undefined) u.display_name = input.display_name;
      if (input.timezone !== undefined) u.timezone = input.timezone;
      if (input.locale !== undefined)
        u.locale = input.locale === null ? null : Intl.getCanonicalLocales(input.locale)[0]!;
    });
    ctx.body = { ok: true, user: presentUser(updated!) };
  };
}

const welcomeBody = z.object({ name: displayNameField });

/** POST /api/auth/welcome/profile-name {name} → { ok, user }: the first-run welcome step names the user. */
export function setWelcomeName(deps: Deps): Middleware {
  return async (ctx) => {
    const { user } = userOf(ctx);
    const input = validate(welcomeBody, ctx.request.body);
    const now = isoAt(deps.clock.now());
    const updated = await deps.stores.users.update(user.id, (u) => {
      u.display_name = input.name;
      u.welcome_completed_at ??= now;
    });
    ctx.body = { ok: true, user: presentUser(updated!) };
  };
}

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
