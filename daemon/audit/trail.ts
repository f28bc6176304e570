import type { Context, Middleware } from 'koa';
import type { Deps } from '../deps.js';
import type { KeyAuth } from '../access/key-guard.js';
import type { UserAuth } from '../auth/user-guard.js';
import { findUserByEmail } from '../auth/find-account.js';
import { routePattern } from '../companies/route-pattern.js';
import { bearerToken } from '../http/bearer.js';
import { renderError } from '../http/error-renderer.js';
import type { AuditActor, NewAuditEntry } from '../store/audit-types.js';
import { digestArguments } from './digest.js';
import type { AuditedToolCall } from './tool-calls.js';
import { ROUTE_ACTIONS, type RouteAudit } from './route-actions.js';
import { runInCall, type CallScope } from '../call-origin.js';
import { restCallScope, traceDetails, traceparentOf } from './trace-join.js';

type TrailDeps = Pick<Deps, 'stores' | 'clock' | 'log'>;

/** What the OAuth token and revocation endpoints note of their form bodies (oauth/request-facts.ts). */
interface OAuthRequestFacts {
  client_id: string | null;
  grant_type: string | null;
  user_id: string | null;
  error: string | null;
}

const MCP_PATH = '/api/mcp';
const NOBODY: AuditActor = { type: 'anonymous', user_id: null, key_id: null, client_id: null, grant_id: null };

/**
 * The one place requests become audit entries, after the route answered (errors are rendered
 * here, so a refusal is recorded with the status and code the caller got): account, key, OAuth and
 * operator actions by the table in route-actions.ts; every call made with a secret key to a
 * Company route (`rest.call`); every MCP tools/call (`mcp.tools_call`, noted by the endpoint).
 *
 * Every entry of a request is durable before its answer leaves: a caller who got an answer will
 * find the entry after a crash or `kill -9`. That costs the request path no fsync of its own: the
 * store group-commits (every request waiting meanwhile shares the next write and sync), so a busy
 * key's calls wait a little longer, never one sync each (docs/audit.md).
 */
export function auditTrail(deps: TrailDeps): Middleware {
  const addresses = new Map<string, string>();
  const isoAt = isoClock();
  return async function auditTrail(ctx, next) {
    const started = deps.clock.now();
    // A call made with a secret key runs in a call scope: the events it appends name it (call-origin.ts).
    // (An MCP request's tool calls get their own scope, from the endpoint.)
    const mcp = ctx.path.toLowerCase().replace(/\/$/, '') === MCP_PATH;
    const scope = !mcp && bearerToken(ctx)?.startsWith('sk_') ? restCallScope(ctx) : undefined;
    try {
      await (scope ? runInCall(scope, () => next()) : next());
    } catch (err) {
      renderError(ctx, err, deps.log);
    }
    if (scope) scope.open = false;
    const written = record(deps, ctx, started, isoAt, addresses, scope);
    if (written) await written;
  };
}

/** The writes a request leaves, or undefined when it leaves none. */
function record(
  deps: TrailDeps,
  ctx: Context,
  started: number,
  isoAt: (ms: number) => string,
  addresses: Map<string, string>,
  scope: CallScope | undefined,
): Promise<unknown> | undefined {
  const path = ctx.path;
  if (path.length - (path.endsWith('/') ? 1 : 0) === MCP_PATH.length && path.toLowerCase().startsWith(MCP_PATH))
    return recordMcp(deps, ctx, started, isoAt);
  const pattern = routePattern(ctx);
  if (pattern === null) return;
  const rule = ROUTE_ACTIONS[`${ctx.method === 'HEAD' ? 'GET' : ctx.method} ${pattern}`];
  // The answer is made: a trail that cannot be written (the database gone mid-request) never changes it.
  if (rule)
    return recordRoute(deps, ctx, rule, pattern, started, isoAt).catch((err) =>
      deps.log.error('audit entry not written', { action: rule.action, request_id: ctx.state.requestId, err }),
    );
  if (rule === null || !bearerToken(ctx)?.startsWith('sk_')) return;
  const key = ctx.state.keyAuth as KeyAuth | undefined;
  const body = ctx.request.body;
  const now = deps.clock.now();
  const call = write(
    deps,
    entryFor(ctx, isoAt(now), key, {
      action: 'rest.call',
      target: `${ctx.method} ${pattern}`,
      details: {
        ...callDetails(ctx, started, now),
        args: digestArguments({ query: { ...ctx.query }, ...(body !== undefined ? { body } : {}) }),
        ...traceDetails(scope?.origin()?.traceparent ?? null, traceparentOf(ctx).kind === 'invalid', scope),
      },
    }),
  );
  const moved = noteNewAddress(deps, ctx, isoAt(now), key, addresses);
  return moved ? Promise.all([call, moved]) : call;
}

/** One entry per tools/call of the request; a request refused before any call (bad key, tier, Origin) gets one of its own. */
function recordMcp(
  deps: TrailDeps,
  ctx: Context,
  started: number,
  isoAt: (ms: number) => string,
): Promise<unknown> | undefined {
  const key = ctx.state.keyAuth as KeyAuth | undefined;
  const calls = ctx.state.auditedToolCalls as AuditedToolCall[] | undefined;
  const now = deps.clock.now();
  if (!calls || calls.length === 0)
    return ctx.status >= 400
      ? write(
          deps,
          entryFor(ctx, isoAt(now), key, {
            action: 'mcp.request',
            target: MCP_PATH,
            details: callDetails(ctx, started, now),
          }),
        )
      : undefined;
  const writes = calls.map((call) =>
    write(
      deps,
      entryFor(ctx, isoAt(now), key, {
        action: 'mcp.tools_call',
        target: call.action ? `${call.tool}.${call.action}` : call.tool,
        outcome: call.outcome,
        reason: call.reason,
        details: {
          tool: call.tool,
          action: call.action,
          args: call.args,
          status: ctx.status,
          ms: call.ms,
          ...traceDetails(call.traceparent, call.traceparentInvalid, { emitted: call.events, count: call.eventCount }),
        },
      }),
    ),
  );
  return writes.length === 1 ? writes[0] : Promise.all(writes);
}

function recordRoute(
  deps: TrailDeps,
  ctx: Context,
  rule: RouteAudit,
  pattern: string,
  started: number,
  isoAt: (ms: number) => string,
): Promise<void> {
  const session = ctx.state.auth as UserAuth | undefined;
  const key = ctx.state.keyAuth as KeyAuth | undefined;
  // The token and revocation endpoints' form bodies are the OAuth library's: it notes what may be kept (oauth/request-facts.ts).
  const oauthRequest = ctx.state.oauthRequest as OAuthRequestFacts | undefined;
  const body = (oauthRequest ?? ctx.request.body ?? {}) as Record<string, unknown>;
  const email = rule.byEmail && typeof body.email === 'string' ? body.email.slice(0, 320) : null;
  const known = session?.user.id ?? key?.user.id ?? oauthRequest?.user_id ?? undefined;
  // Only an answer with no session, key or OAuth account behind it needs a lookup to say whose it is.
  if (known !== undefined) return writeRoute(deps, ctx, rule, pattern, started, isoAt, known, email);
  return subjectOf(deps, ctx, email).then((userId) =>
    writeRoute(deps, ctx, rule, pattern, started, isoAt, userId, email),
  );
}

function writeRoute(
  deps: TrailDeps,
  ctx: Context,
  rule: RouteAudit,
  pattern: string,
  started: number,
  isoAt: (ms: number) => string,
  userId: string | null,
  email: string | null,
): Promise<void> {
  const operator = pattern.startsWith('/api/dev/');
  const session = ctx.state.auth as UserAuth | undefined;
  const key = ctx.state.keyAuth as KeyAuth | undefined;
  const oauthRequest = ctx.state.oauthRequest as OAuthRequestFacts | undefined;
  const body = (oauthRequest ?? ctx.request.body ?? {}) as Record<string, unknown>;
  const answer = (ctx.body ?? {}) as Record<string, unknown>;
  const succeeded = ctx.status < 400;
  // A consent names its Company in the body; it is the caller's only once the consent succeeded
  // (the route checks ownership). Elsewhere a body's company_id is just input and never a stream.
  const consented = pattern === '/api/oauth/authorize' && succeeded && typeof body.company_id === 'string';
  const params = (ctx.params ?? {}) as Record<string, string | undefined>;
  // A change to a Company's people (or its deletion) goes in that Company's stream once the route let the caller make it.
  const peopleChange = (pattern === '/api/companies/:id' || pattern.startsWith('/api/companies/:id/')) && succeeded;
  const companyId =
    key?.company.id ?? (consented ? (body.company_id as string) : peopleChange ? (params.id ?? null) : null);
  const target =
    params.user_id ??
    params.invitation_id ??
    params.id ??
    (typeof answer.id === 'string' ? answer.id : null) ??
    oauthRequest?.client_id ??
    email;
  const actor: AuditActor = operator
    ? { ...NOBODY, type: 'operator' }
    : oauthRequest?.client_id
      ? { ...NOBODY, type: 'oauth', user_id: oauthRequest.user_id, client_id: oauthRequest.client_id }
      : key
        ? { ...NOBODY, type: 'key', user_id: key.user.id, key_id: key.keyId }
        : userId && (session || succeeded)
          ? { ...NOBODY, type: 'user', user_id: userId }
          : NOBODY;
  const now = deps.clock.now();
  const details = callDetails(ctx, started, now) as Record<string, unknown>;
  if (rule.factor) details.factor = rule.factor;
  if (answer.totp_required === true) details.second_factor_required = true;
  if (pattern.startsWith('/api/oauth/') || pattern.startsWith('/oauth/')) Object.assign(details, oauthDetails(body));
  return write(deps, {
    ...requestFacts(ctx, isoAt(now)),
    actor,
    user_id: userId,
    company_id: companyId,
    action: rule.action,
    target,
    outcome: succeeded ? 'succeeded' : 'refused',
    reason: succeeded ? null : (oauthRequest?.error ?? reasonOf(ctx)),
    details,
  });
}

/** The account a request concerns when no session names it: the one its answer's token was issued to, else the one its e-mail names. */
async function subjectOf(deps: TrailDeps, ctx: Context, email: string | null): Promise<string | null> {
  const answer = ctx.body as { token?: unknown; partial_token?: unknown } | null;
  const token = typeof answer?.token === 'string' ? answer.token : answer?.partial_token;
  const fromToken = typeof token === 'string' ? userIdInToken(token) : null;
  // A signup for a taken address answers a decoy token (no enumeration): its user does not exist.
  if (fromToken && (await deps.stores.users.findById(fromToken))) return fromToken;
  if (!email) return null;
  return (await findUserByEmail(deps.stores.users, email).catch(() => undefined))?.id ?? null;
}

/** The `user_id` claim of a token this daemon just issued (read, not verified: it never came from the caller). */
function userIdInToken(token: string): string | null {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    return typeof claims.user_id === 'string' ? claims.user_id : typeof claims.sub === 'string' ? claims.sub : null;
  } catch {
    return null;
  }
}

/** What an OAuth consent or revocation names besides its outcome: the client and decision, never a token. */
function oauthDetails(body: Record<string, unknown>): Record<string, unknown> {
  const pick = (k: string) => (typeof body[k] === 'string' ? (body[k] as string).slice(0, 200) : undefined);
  return {
    client_id: pick('client_id'),
    grant_type: pick('grant_type'),
    decision: pick('decision'),
    scope: pick('scope'),
    company_id: pick('company_id'),
  };
}

interface Partial {
  action: string;
  target: string;
  outcome?: 'succeeded' | 'refused';
  reason?: string | null;
  details: Record<string, unknown>;
}

function entryFor(ctx: Context, at: string, key: KeyAuth | undefined, p: Partial): NewAuditEntry {
  const outcome = p.outcome ?? (ctx.status < 400 ? 'succeeded' : 'refused');
  return {
    ...requestFacts(ctx, at),
    actor: key?.oauth
      ? { ...NOBODY, type: 'oauth', user_id: key.user.id, client_id: key.oauth.clientId, grant_id: key.oauth.grantId }
      : key
        ? { ...NOBODY, type: 'key', user_id: key.user.id, key_id: key.keyId }
        : { ...NOBODY, type: bearerToken(ctx)?.startsWith('sk_') ? 'key' : 'anonymous' },
    user_id: key?.user.id ?? null,
    company_id: key?.company.id ?? null,
    action: p.action,
    target: p.target,
    outcome,
    reason: outcome === 'refused' ? (p.reason ?? reasonOf(ctx)) : null,
    details: p.details,
  };
}

const requestFacts = (ctx: Context, at: string) => ({
  at,
  request_id: (ctx.state.requestId as string | undefined) ?? null,
  client_address: ctx.ip || null,
  user_agent: ctx.get('User-Agent').slice(0, 256) || null,
});

const callDetails = (ctx: Context, started: number, now: number) => ({
  method: ctx.method,
  status: ctx.status,
  ms: Math.max(0, now - started),
});

/**
 * Times as ISO text, formatted once per millisecond: requests that end in the same millisecond
 * (most of a busy key's) share one string.
 */
function isoClock(): (ms: number) => string {
  let lastMs = Number.NaN;
  let lastIso = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  };
}

function reasonOf(ctx: Context): string {
  const code = (ctx.body as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : `http_${ctx.status}`;
}

/**
 * A key used from an address other than the one it was last seen from: one entry per change
 * (remembered per key in this daemon, so a burst of calls from the new address leaves one).
 */
function noteNewAddress(
  deps: TrailDeps,
  ctx: Context,
  at: string,
  key: KeyAuth | undefined,
  seen: Map<string, string>,
): Promise<void> | undefined {
  // A secret key only: an OAuth token's client is an app the user connected, not a credential copied around.
  if (!key || key.keyId === null || key.principal.kind !== 'key' || !ctx.ip) return;
  const keyId = key.keyId;
  const last = seen.get(keyId) ?? key.principal.key.last_used_ip ?? null;
  if (last === ctx.ip) return;
  if (seen.size >= 10_000) seen.clear();
  seen.set(keyId, ctx.ip);
  if (last === null) return;
  return write(
    deps,
    entryFor(ctx, at, key, {
      action: 'key.new_address',
      target: keyId,
      outcome: 'succeeded',
      details: { previous_address: last },
    }),
  );
}

/** Never fails the request: a trail that cannot be written is logged loudly instead. */
async function write(deps: TrailDeps, entry: NewAuditEntry): Promise<void> {
  try {
    await deps.stores.audit.append(entry);
  } catch (err) {
    deps.log.error('audit entry not written', { action: entry.action, request_id: entry.request_id, err });
  }
}
