import type { Router } from '@koa/router';
import type { Deps } from '../deps.js';
import { validate } from '../http/validate.js';
import { devUserBody } from '../../shared/schemas/dev.js';
import { ensureSeedUser, issueSeedSession } from './seed-users.js';

/**
 * `POST /api/dev/users`: what `svc dev seed` cannot do through the public API — a verified user
 * without an invite or a mail round trip. The answer carries a ten-minute session token for that
 * user so the CLI makes the user's Companies, keys and agents through the same routes a user
 * would (the operator can already read every login code in the captured mail, so this gives the
 * token's holder nothing new); the CLI logs it out when it is done.
 */
export function seedRoutes(router: Router, deps: Deps): void {
  router.post('/api/dev/users', async (ctx) => {
    const body = validate(devUserBody, ctx.request.body);
    const { user, created } = await ensureSeedUser(deps, body);
    ctx.status = created ? 201 : 200;
    ctx.body = {
      ok: true,
      created,
      user: { id: user.id, email: user.email, tier: user.tier, totp: Boolean(body.totp_secret) },
      token: await issueSeedSession(deps, user),
    };
  });
}
