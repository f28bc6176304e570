import { Router } from '@koa/router';
import { keyCreateBody as createBody } from '../../shared/schemas/key-create.js';
import { ErrorCode } from '../../shared/errors.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { resolveOwnedCompany } from '../companies/companies.js';
import { notFound } from '../http/api-error.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import { validate } from '../http/validate.js';
import { ALL_SCOPES } from '../../shared/scopes.js';
import { expiryFor } from './key-lifetime.js';
import { keyAccessRoutes } from './key-access-routes.js';
import { SAVE_NOTE, secretKeyView } from './key-view.js';
import { generateKey } from '../access/key-material.js';
import { assertKeyTier } from '../access/tier-gate.js';

/**
 * Access keys (spec §4.5), all behind a full session JWT. Creating a key passes the tier gate
 * after authentication (401 before 402); listing and revoking do not, so a downgraded user can
 * still see and delete their keys.
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
    assertKeyTier(user.tier);
    const body = validate(createBody, ctx.request.body);
    const now = deps.clock.now();
    const expires_at = expiryFor(body, now, deps.config.maxKeyLifetimeSeconds);
    const company = await resolveOwnedCompany(deps, user, body.root);
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
      scopes: body.scopes ? ALL_SCOPES.filter((s) => body.scopes!.includes(s)) : null,
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
        (await deps.stores.keys.listSecretKeys(user.id)).map(async (k) => ({
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
    // Another user's key id answers exactly like an unknown one: no effect, and nothing learned.
    if (!(await deps.stores.keys.revokeSecretKey(id, user.id)))
      throw notFound(`You have no secret key ${id}.`, ErrorCode.keyNotFound);
    ctx.body = { ok: true, id, revoked: true };
  });

  keyAccessRoutes(deps, router, guard);
  return router;
}
