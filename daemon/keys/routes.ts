import { Router } from '@koa/router';
import { keyCreateBody as createBody } from '../../shared/schemas/key-create.js';
import { ErrorCode } from '../../shared/errors.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { resolveMemberCompany } from '../companies/companies.js';
import { notFound } from '../http/api-error.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import { validate } from '../http/validate.js';
import { manageableKey, ownerTierOf, scopesWithinRole, visibleKeys } from './company-keys.js';
import { expiryFor } from './key-lifetime.js';
import { keyAccessRoutes } from './key-access-routes.js';
import { SAVE_NOTE, secretKeyView } from './key-view.js';
import { generateKey } from '../access/key-material.js';
import { assertKeyTier, tierAllowsKeys } from '../access/tier-gate.js';

/**
 * Access keys (spec §4.5), all behind a full session JWT. A secret key belongs to its Company and
 * records who made it (company-keys.ts). Creating one passes the tier gate of the Company's owner
 * after authentication (401 before 402); listing and revoking do not, so keys of a downgraded
 * Company can still be seen and deleted.
 */
export function keyRoutes(deps: Deps): Router {
  const router = new Router();
  const guard = requireUser(deps);

  router.post('/api/account/api-key', guard, async (ctx) => {
    const { user } = userOf(ctx);
    assertKeyTier(user.tier);
    const fresh = generateKey(deps.random, 'account');
    // Ids never start like the secret (ak_/sk_): an id in a log or a screenshot must not look like a leaked key.
    const id = deps.ids('akey');
    // One write replaces the old row, so the old key fails on its very next use (spec §3.4).
    const { rotated } = await deps.stores.keys.setAccountKey({
      id,
      user_id: user.id,
      hash: fresh.hash,
      prefix: fresh.prefix,
      created_at: isoAt(deps.clock.now()),
      last_used_at: null,
    });
    ctx.status = 201;
    ctx.body = { ok: true, id, api_key: fresh.key, rotated, prefix: fresh.prefix };
  });

  router.post('/api/keys', guard, async (ctx) => {
    const { user } = userOf(ctx);
    const body = validate(createBody, ctx.request.body);
    const now = deps.clock.now();
    const expires_at = expiryFor(body, now, deps.config.maxKeyLifetimeSeconds);
    const { company, role } = await resolveMemberCompany(deps, user, body.root).catch((err) => {
      // An account whose own tier has no keys makes them only in a paid owner's Company it belongs
      // to; naming anything else is the tier's 402, so such an account learns nothing of other Companies.
      if (!tierAllowsKeys(user.tier)) assertKeyTier(user.tier);
      throw err;
    });
    // The Company's owner's tier decides, whoever makes the key (spec §5.4, read for teams).
    assertKeyTier(await ownerTierOf(deps, user, company));
    const scopes = scopesWithinRole(user, role, body.scopes, now);
    const fresh = generateKey(deps.random, 'secret');
    const record = await deps.stores.keys.addSecretKey({
      id: deps.ids('key'),
      user_id: user.id,
      company_id: company.id,
      name: body.name,
      hash: fresh.hash,
      prefix: fresh.prefix,
      created_at: isoAt(now),
      last_used_at: null,
      // Stored in the vocabulary's order, once each: what lists show and the check reads.
      scopes,
      expires_at,
    });
    ctx.status = 201;
    ctx.body = {
      ok: true,
      id: record.id,
      secret_key: fresh.key,
      note: SAVE_NOTE,
      ...(await secretKeyView(deps, record)),
    };
  });

  router.get('/api/keys', guard, async (ctx) => {
    const { user } = userOf(ctx);
    const ak = await deps.stores.keys.accountKeyOf(user.id);
    ctx.body = {
      keys: await Promise.all(
        (await visibleKeys(deps, user)).map(async (k) => ({
          id: k.id,
          ...(await secretKeyView(deps, k)),
        })),
      ),
      account_key: ak
        ? { id: ak.id, prefix: ak.prefix, created_at: ak.created_at, last_used_at: ak.last_used_at }
        : null,
    };
  });

  router.delete('/api/keys/:id', guard, async (ctx) => {
    const { user } = userOf(ctx);
    const id = ctx.params.id!;
    // A key outside the caller's Companies answers exactly like an unknown one: no effect, nothing learned.
    const { key } = await manageableKey(deps, user, id);
    if (!(await deps.stores.keys.deleteCompanyKey(id, key.company_id)))
      throw notFound(`You have no secret key ${id}.`, ErrorCode.keyNotFound);
    ctx.body = { ok: true, id, revoked: true };
  });

  keyAccessRoutes(deps, router, guard);
  return router;
}
