import { Readable } from 'node:stream';
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { auditQuery, type AuditQueryInput } from '../../shared/schemas/audit.js';
import type { Deps } from '../deps.js';
import { authenticateKeys } from '../access/key-guard.js';
import { ACCOUNT_ROUTE_SCOPES } from '../access/operation-scopes.js';
import { checkAccess } from '../access/permission.js';
import { refusalOf } from '../access/refusal.js';
import { requireUser, userOf } from '../auth/user-guard.js';
import { notYours, unknownCompany } from '../companies/company-errors.js';
import { readCompanySelector } from '../companies/tenant-selection.js';
import { bearerToken } from '../http/bearer.js';
import { matchOperatorToken, requireOperator } from '../http/operator-guard.js';
import { validate } from '../http/validate.js';
import type { AuditQuery, AuditStore } from '../store/audit-types.js';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError } from '../http/api-error.js';
import { findEntry, traceCall } from './call-trace.js';

/** The most entries one JSON Lines export holds; a larger trail is exported in time slices (`since`/`until`). */
const EXPORT_MAX = 100_000;

/**
 * Reading the trail. `GET /api/audit`: a user's own entries and those of the Companies they own
 * (`X-Company` narrows to one), or, with a secret key holding `audit:read`, its Company's. The
 * operator's `GET /api/dev/audit` sees everything; `GET /api/dev/audit/verify` re-walks the chain
 * (the route `svc admin audit verify` uses on a running daemon and in team mode).
 */
export function auditRoutes(deps: Deps): Router {
  const router = new Router();
  const userGuard = requireUser(deps);

  router.get('/api/audit', async (ctx) => {
    const filters = validate(auditQuery, ctx.query);
    if (bearerToken(ctx)?.startsWith('sk_')) {
      const key = await authenticateKeys(deps, ctx);
      ctx.state.keyAuth = key;
      const verdict = checkAccess(
        key.principal,
        { kind: 'rest', method: 'GET', route: '/api/audit', table: ACCOUNT_ROUTE_SCOPES },
        deps.clock.now(),
      );
      if (!verdict.allowed) throw refusalOf(verdict, key.user.tier);
      const selector = readCompanySelector(ctx);
      if (selector && selector.id !== key.company.id) throw notYours(selector.id);
      const viewer = { user_id: null, company_ids: [key.company.id] };
      return answer(ctx, deps.stores.audit, toQuery(filters, viewer, key.company.id));
    }
    await userGuard(ctx, async () => {
      const { user } = userOf(ctx);
      const owned = (await deps.stores.companies.listByOwner(user.id)).map((c) => c.id);
      const selector = readCompanySelector(ctx);
      if (selector && !owned.includes(selector.id)) {
        if (!(await deps.stores.companies.findById(selector.id))) throw unknownCompany(selector.id);
        throw notYours(selector.id);
      }
      const viewer = { user_id: user.id, company_ids: owned };
      await answer(ctx, deps.stores.audit, toQuery(filters, viewer, selector?.id));
    });
  });

  // The trace that starts at a call (`svc events trace aud_…`): its entry and the events it set off.
  router.get('/api/audit/:id/trace', async (ctx) => {
    const id = ctx.params.id ?? '';
    let viewer: AuditQuery['viewer'];
    if (bearerToken(ctx)?.startsWith('sk_')) {
      const key = await authenticateKeys(deps, ctx);
      ctx.state.keyAuth = key;
      for (const [route, table] of [
        ['/api/audit/:id/trace', ACCOUNT_ROUTE_SCOPES],
        ['/api/events/trace', undefined],
      ] as const) {
        const verdict = checkAccess(key.principal, { kind: 'rest', method: 'GET', route, table }, deps.clock.now());
        if (!verdict.allowed) throw refusalOf(verdict, key.user.tier);
      }
      viewer = { user_id: null, company_ids: [key.company.id] };
    } else {
      await userGuard(ctx, async () => {});
      const { user } = userOf(ctx);
      viewer = { user_id: user.id, company_ids: (await deps.stores.companies.listByOwner(user.id)).map((c) => c.id) };
    }
    const entry = await findEntry(deps, id, viewer);
    // Another account's entry answers as one that does not exist: ids are sequential, so a 403 would confirm it.
    if (!entry) throw new ApiError(404, ErrorCode.notFound, `No audit entry ${id.slice(0, 40)} among yours.`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await traceCall(deps, entry);
  });

  const operator = requireOperator(deps.checkOperatorToken ?? matchOperatorToken(deps.secrets.operatorToken));
  router.get('/api/dev/audit', operator, async (ctx) => {
    const filters = validate(auditQuery, ctx.query);
    const selected = readCompanySelector(ctx)?.id;
    await answer(ctx, deps.stores.audit, toQuery(filters, 'all', selected));
  });
  router.get('/api/dev/audit/verify', operator, async (ctx) => {
    ctx.body = await deps.stores.audit.verify();
  });
  return router;
}

function toQuery(f: AuditQueryInput, viewer: AuditQuery['viewer'], companyId: string | undefined): AuditQuery {
  return {
    viewer,
    ...(companyId !== undefined ? { company_id: companyId } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.key ? { key_id: f.key } : {}),
    ...(f.outcome ? { outcome: f.outcome } : {}),
    ...(f.since ? { since: new Date(f.since).toISOString() } : {}),
    ...(f.until ? { until: new Date(f.until).toISOString() } : {}),
    ...(f.after ? { after: f.after } : f.cursor ? { before: f.cursor } : {}),
    limit: f.limit ? Number(f.limit) : 100,
  };
}

const wantsLines = (ctx: Context, f: { format?: string }) =>
  f.format === 'jsonl' ||
  (f.format === undefined && /application\/x-ndjson|application\/jsonl/.test(ctx.get('Accept')));

async function answer(ctx: Context, store: AuditStore, q: AuditQuery): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  if (!wantsLines(ctx, ctx.query as { format?: string })) {
    ctx.body = await store.query(q);
    return;
  }
  // Export: every matching entry, one JSON object a line, page after page (limit is the page size).
  ctx.type = 'application/x-ndjson';
  ctx.body = Readable.from(exportLines(store, q));
}

async function* exportLines(store: AuditStore, first: AuditQuery): AsyncGenerator<string> {
  let q = first;
  let sent = 0;
  for (;;) {
    const page = await store.query({ ...q, limit: Math.min(1000, Math.max(q.limit, 500)) });
    for (const e of page.entries) {
      if (sent++ >= EXPORT_MAX) return;
      yield `${JSON.stringify(e)}\n`;
    }
    if (!page.next_cursor) return;
    q = q.after !== undefined ? { ...q, after: page.next_cursor } : { ...q, before: page.next_cursor };
  }
}
