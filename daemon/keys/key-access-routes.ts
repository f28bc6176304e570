import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { keyExplainBody, keyRotateBody } from '../../shared/schemas/key-access.js';
import { isoAt } from '../clock.js';
import type { Deps } from '../deps.js';
import { keyPrincipal } from '../access/key-guard.js';
import { generateKey } from '../access/key-material.js';
import { checkAccess, type Verdict } from '../access/permission.js';
import { createToolCallLimit, rateLimitMessage } from '../access/tool-call-limit.js';
import { assertKeyTier } from '../access/tier-gate.js';
import { userOf } from '../auth/user-guard.js';
import { conflict, notFound } from '../http/api-error.js';
import { validate } from '../http/validate.js';
import { describeOperation, parseOperation } from './explain.js';
import { rotatedExpiry } from './key-lifetime.js';
import { manageableKey, ownerTierOf, scopesWithinRole } from './company-keys.js';
import { ALL_SCOPES } from '../../shared/scopes.js';
import { SAVE_NOTE, secretKeyView } from './key-view.js';

/**
 * Rotation with overlap and explain, beside the other key routes and behind the same session
 * guard. Both act only on the caller's own keys: another user's key id answers exactly like an
 * unknown one (404), so an id learns nothing.
 */
export function keyAccessRoutes(deps: Deps, router: Router, guard: Middleware): void {
  // The MCP endpoint's own limit, over the same counts: explain reads it without counting.
  const toolCalls = createToolCallLimit(deps.stores.limits, deps.clock, deps.config.mcpToolCallsPerMinute);

  router.post('/api/keys/:id/rotate', guard, async (ctx) => {
    const { user } = userOf(ctx);
    const { overlap_seconds } = validate(keyRotateBody, ctx.request.body);
    const { key: old, role } = await manageableKey(deps, user, ctx.params.id!);
    const company = await deps.stores.companies.findById(old.company_id);
    assertKeyTier(company ? await ownerTierOf(deps, user, company) : 'trial');
    const now = deps.clock.now();
    // A rotation hands out a new secret with the old key's scopes: only within the rotator's role.
    scopesWithinRole(user, role, old.scopes ?? ALL_SCOPES, now);
    const fresh = generateKey(deps.random, 'secret');
    // Same Company, maker, name, scopes and expiry policy; only the secret (and the id) is new.
    const record = {
      id: deps.ids('key'),
      user_id: old.user_id,
      company_id: old.company_id,
      name: old.name,
      hash: fresh.hash,
      prefix: fresh.prefix,
      created_at: isoAt(now),
      last_used_at: null,
      scopes: old.scopes ?? null,
      expires_at: rotatedExpiry(old, now, deps.config.maxKeyLifetimeSeconds),
    };
    const retiresAt = isoAt(now + overlap_seconds * 1000);
    const outcome = await deps.stores.keys.rotateSecretKey(old.id, old.user_id, record, retiresAt);
    if (!outcome.ok && outcome.reason === 'not_found')
      throw notFound(`You have no secret key ${old.id}.`, ErrorCode.keyNotFound);
    if (!outcome.ok)
      throw conflict(
        `The key ${old.id} was rotated already (replaced by ${old.replaced_by ?? 'another key'}): rotate that one instead.`,
        ErrorCode.keyAlreadyRotated,
      );
    ctx.status = 201;
    ctx.body = {
      ok: true,
      id: record.id,
      secret_key: fresh.key,
      note: SAVE_NOTE,
      ...(await secretKeyView(deps, record)),
      rotated_from: { id: old.id, retires_at: retiresAt },
    };
  });

  router.post('/api/keys/:id/explain', guard, async (ctx) => {
    const { user } = userOf(ctx);
    const { operation: text } = validate(keyExplainBody, ctx.request.body);
    const { key } = await manageableKey(deps, user, ctx.params.id!);
    const operation = parseOperation(text);
    const company = await deps.stores.companies.findById(key.company_id);
    const maker = key.user_id === user.id ? user : ((await deps.stores.users.findById(key.user_id)) ?? user);
    const ownerTier = company ? await ownerTierOf(deps, user, company) : 'trial';
    // The very check a request with this key would meet, on the key as stored now; nothing acts.
    let verdict: Verdict & { retry_after?: number } = checkAccess(
      keyPrincipal(maker, key, ownerTier),
      operation,
      deps.clock.now(),
    );
    // A tool call the key may make still meets the per-key limit next, as the endpoint counts it.
    const wait = verdict.allowed && operation.kind === 'mcp' ? await toolCalls.wait(key.id) : null;
    if (wait !== null)
      verdict = { allowed: false, rule: 'rate_limit', message: rateLimitMessage(wait), retry_after: wait };
    ctx.body = { ...verdict, operation: describeOperation(operation) };
  });
}
