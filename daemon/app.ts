import Koa from 'koa';
import type { Router } from '@koa/router';
import type { Deps } from './deps.js';
import { accountRouters } from './auth/routes.js';
import { createAuthLimits, type AuthLimits } from './auth/limits.js';
import { devRoutes } from './dev/routes.js';
import { healthRoutes } from './health/routes.js';
import { frontDoor } from './http/front-door.js';
import { billingRoutes } from './companies/billing-routes.js';
import { companiesRoutes } from './companies/companies-routes.js';
import { memberRoutes } from './companies/member-routes.js';
import { acceptInvitationRoutes } from './companies/invitation-routes.js';
import { tenantRoutes } from './companies/tenant.js';
import { keyRoutes } from './keys/routes.js';
import { MCP_PATH, mcpRoutes } from './mcp/routes.js';
import { totpRoutes } from './auth/totp/routes.js';
import { loginCodeRoutes } from './auth/login-code/routes.js';
import { walletRoutes } from './auth/wallet/routes.js';
import { passkeyRoutes } from './auth/passkeys/routes.js';
import { dispatchRoutes } from './http/route-dispatch.js';
import { inboundWebhookRoutes } from './companies/inbound-webhook-route.js';
import { WEBHOOK_PATH } from './company/index.js';
import { consoleRoutes } from './console/routes.js';
import { pairingRoutes } from './auth/pairing/routes.js';
import { createOAuthServer } from './oauth/routes.js';
import { isProviderPath } from './oauth/urls.js';
import { OAUTH_SCOPES } from './oauth/scopes.js';
import { auditRoutes } from './audit/routes.js';
import { auditTrail } from './audit/trail.js';

/** Routes on these prefixes take the smaller auth body limit (SECURITY.md: 64 KiB). */
const AUTH_PREFIXES = ['/api/auth/', '/api/me/'];

/**
 * The daemon as a Koa app, with no port and no process concerns (those are main.ts's).
 * The middleware order is the whole story of a request:
 *   front door (request id + access log → error renderer → Host check → URL text → JSON body → 404 fallback) → routes.
 */
export interface AppParts {
  /** The app's one set of signup, login and recovery throttles; made here unless given (tests lock accounts through it). */
  authLimits?: AuthLimits;
  /**
   * Leaves the audit trail out. Only the bench sets it (bench/audit-variant.ts), to measure what the
   * trail costs a request against the same daemon without it; no flag, variable or file reaches it.
   */
  withoutAuditTrail?: true;
}

export function createApp(deps: Deps, parts: AppParts = {}): Koa {
  // Behind a proxy (SVC_TRUST_PROXY): only the last X-Forwarded-For entry, the one our proxy added,
  // is the client; earlier entries are whatever the client sent.
  const app = new Koa({ proxy: deps.config.trustProxy, maxIpsCount: 1 });
  // Errors are rendered and logged by the front door; Koa's own printer would log them twice.
  app.silent = true;

  // Request id and access log, error renderer, Host check, URL text, JSON body, and the 404 of a
  // request no route answered: one middleware (http/front-door.ts says why).
  app.use(
    frontDoor({
      log: deps.log,
      now: deps.clock.now,
      config: deps.config,
      body: {
        limitFor: (path) =>
          AUTH_PREFIXES.some((p) => path.toLowerCase().startsWith(p))
            ? deps.config.limits.authBodyBytes
            : deps.config.limits.bodyBytes,
        // The MCP endpoint answers a bad body with a JSON-RPC error, so it reads the body itself; the
        // authorization server's endpoints take form-encoded bodies, read by the protocol library.
        passThrough: (path) =>
          path.toLowerCase().replace(/\/$/, '') === MCP_PATH || WEBHOOK_PATH.test(path) || isProviderPath(path),
      },
    }),
  );
  // Every audited request leaves its entry here, after its route answered or refused (audit/trail.ts).
  if (!parts.withoutAuditTrail) app.use(auditTrail(deps));
  app.use(dispatchRoutes(routeGroups(deps, parts.authLimits)));
  return app;
}

/** Exported so tests can walk every route the app serves (tests/daemon/http/robustness.test.ts). */
export function routeGroups(deps: Deps, authLimits: AuthLimits = createAuthLimits(deps)): Router[] {
  const oauth = createOAuthServer(deps, { resourcePath: MCP_PATH, scopes: OAUTH_SCOPES });
  return [
    healthRoutes(() => deps.devClock?.offset() ?? 0),
    devRoutes(deps),
    // accounts: signup, login, recovery, profile, sessions
    ...accountRouters(deps, authLimits),
    // second factors and passwordless logins
    totpRoutes(deps),
    loginCodeRoutes(deps),
    walletRoutes(deps),
    passkeyRoutes(deps),
    // the audit trail: reading it, and the operator's view and verification
    auditRoutes(deps),
    // Companies, keys, billing, MCP
    companiesRoutes(deps),
    memberRoutes(deps),
    acceptInvitationRoutes(deps),
    keyRoutes(deps),
    billingRoutes(deps),
    // MCP: secret keys, and the access tokens of the daemon's own authorization server
    mcpRoutes(deps, oauth.resolveAccessToken),
    // MCP clients' sign-in: the authorization server and the MCP endpoint's resource metadata
    ...oauth.routers,
    // inbound webhooks: signed, no token (companies/inbound-webhook-route.ts says why)
    inboundWebhookRoutes(deps),
    // every Company's routes, behind tenant selection
    tenantRoutes(deps),
    // the web console at / and `svc login --web`'s device pairing
    consoleRoutes(),
    pairingRoutes(deps),
  ];
}
