import type { Middleware } from 'koa';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { userOf } from './user-guard.js';
import { validate } from '../http/validate.js';
import { presentUser } from './me-view.js';
import { profileBody, welcomeNameBody as welcomeBody } from '../../shared/schemas/auth.js';

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
