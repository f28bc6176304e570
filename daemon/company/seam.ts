import { join } from 'node:path';
import type { Context } from 'koa';
import type { UserRecord } from '../store/types.js';
import type { CompanyRef, CompanyServices } from './company-services.js';

/**
 * The seam between the gateway (companies, keys, tenant selection) and a Company's runtime
 * (agents, sessions, quests, events). The gateway decides *which* Company and *who* calls; the
 * runtime only ever sees one Company. Today both run in the daemon; to move runtimes into their
 * own processes, only a RuntimeHost that forwards `handle` over IPC/HTTP has to be written.
 */
export type { CompanyRef } from './company-services.js';

/** The one path an unauthenticated inbound webhook delivery (`via: 'webhook'`) may reach. */
export const WEBHOOK_PATH = /^\/api\/webhooks\/[^/]+\/?$/i;

/** Who a runtime request is for: set on `ctx.state.tenant` before `CompanyRuntime.handle`. */
export interface TenantCaller {
  user: UserRecord;
  company: CompanyRef;
  /**
   * A dashboard session (JWT) or a secret key bound to this Company; `webhook` is an
   * unauthenticated inbound delivery whose signature the runtime checks: it reaches
   * `POST /api/webhooks/{channel}` only, and `user` is then the Company's owner record.
   */
  via: 'session' | 'secret_key' | 'webhook';
  keyId?: string;
}

export interface CompanyRuntime {
  /** Serves one request routed to this Company (`ctx.state.tenant` is set). Leaves 404 untouched when no route matches. */
  handle(ctx: Context): Promise<void>;
  /** The same runtime for callers that are not HTTP (MCP tools, scheduler, channels): company-services.ts. */
  services: CompanyServices;
  /** Gives a new Company the default schedules (paused): once, right after it is created. */
  seedDefaults(): Promise<void>;
}

export interface RuntimeHost {
  /** The runtime of one Company, opened on first use. */
  open(company: CompanyRef): Promise<CompanyRuntime>;
  /** Flushes and closes every open runtime (daemon shutdown). */
  close(): Promise<void>;
  /** Answers pending long-polls now, so the server can finish in-flight requests (called first at shutdown). */
  drain?(): void;
}

/** Each Company's runtime keeps its files here, under the daemon's data folder. */
export const companyDataDir = (dataDir: string, companyId: string) => join(dataDir, 'companies', companyId);

export function tenantOf(ctx: Context): TenantCaller {
  const tenant = ctx.state.tenant as TenantCaller | undefined;
  if (!tenant) throw new Error(`runtime route ${ctx.path} reached without a tenant selection`);
  return tenant;
}
