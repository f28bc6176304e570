import { createHash } from 'node:crypto';
import { Router } from '@koa/router';
import { ErrorCode } from '../../shared/errors.js';
import type { OAuthGrantRow } from '../../shared/schemas/oauth.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import { missing } from '../domain-error.js';
import { findGrantBinding, listUserBindings } from './grant-binding.js';
import type { OAuthDeps } from './oauth-deps.js';

export const GRANTS_PATH = '/api/oauth/grants';

/**
 * Connected apps: the user's grants (one per client sign-in: a client, a Company, scopes) and their
 * revocation. Revoking removes the grant with every code and token it issued, so the client's
 * next request at the MCP endpoint is a 401, on every daemon. Another user's grant id answers
 * exactly like an unknown one (404): nothing is learned, nothing happens.
 */
export function grantRoutes(deps: OAuthDeps): Router {
  const router = new Router();
  const signedIn = requireUser(deps);

  router.get(GRANTS_PATH, signedIn, async (ctx) => {
    const { user } = userOf(ctx);
    const bindings = await listUserBindings(deps, user.id);
    const now = new Date(deps.clock.now()).toISOString();
    const rows = await Promise.all(
      bindings.map(async (b): Promise<OAuthGrantRow | null> => {
        const [client, company] = await Promise.all([
          deps.stores.oauth.find('Client', createHash('sha256').update(b.clientId).digest('hex'), now),
          deps.stores.companies.findById(b.companyId),
        ]);
        // A grant to a Company since deleted can never work again (its tokens are refused): not an app to manage.
        if (!company) return null;
        const name = client?.payload.client_name;
        return {
          id: b.grantId,
          client: { id: b.clientId, name: typeof name === 'string' ? name : null },
          company_id: b.companyId,
          company_name: company.name,
          scopes: b.scopes,
          created_at: b.created_at ?? now,
          last_used_at: b.last_used_at ?? null,
        };
      }),
    );
    const grants = rows.filter((g): g is OAuthGrantRow => g !== null);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { grants };
  });

  router.delete(`${GRANTS_PATH}/:id`, signedIn, async (ctx) => {
    const { user } = userOf(ctx);
    const id = ctx.params.id!;
    const binding = await findGrantBinding(deps, id);
    if (!binding || binding.userId !== user.id)
      throw missing(`You have no connected app with grant ${id}.`, ErrorCode.oauthGrantNotFound);
    await deps.stores.oauth.removeGrant(id);
    ctx.body = { ok: true, id, revoked: true };
  });
  return router;
}
