import { join } from 'node:path';
import type { Context } from 'koa';
import type { Role } from '../../shared/roles.js';
import type { UserRecord } from '../store/types.js';
import type { CompanyRef, CompanyServices } from './company-services.js';

/**
 * The seam between tenant selection (companies/tenant.ts: who calls, and for which Company) and a
 * Company's runtime (agents, sessions, quests, events). Selection authenticates the caller, picks
 * the Company, opens its runtime through the RuntimeHost and puts both on the request
 * (`enterCompany`); the Company's routes, registered once for the whole daemon, then read them
 * (`tenantOf`, `runtimeOf`) and only ever see that one Company. To move runtimes into their own
 * processes, a RuntimeHost whose runtimes forward their services' calls is what has to be written.
 */
export type { CompanyRef } from './company-services.js';

/** The one path an unauthenticated inbound webhook delivery (`via: 'webhook'`) may reach. */
export const WEBHOOK_PATH = /^\/api\/webhooks\/[^/]+\/?$/i;

/** Who a runtime request is for: put on the request by `enterCompany` before any Company route runs. */
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
  /** A session's role in the Company (owner, admin, member, viewer); keys have scopes instead. */
  role?: Role;
}

export interface CompanyRuntime {
  /** What the Company's routes and every other caller (MCP tools, scheduler, channels) act through: company-services.ts. */
  services: CompanyServices;
  /** Gives a new Company the default schedules (paused): once, right after it is created. */
  seedDefaults(): Promise<void>;
}

export interface RuntimeHost {
  /** The runtime of one Company, opened on first use. */
  open(company: CompanyRef): Promise<CompanyRuntime>;
  /**
   * A deleted Company: closes its runtime if open here (its scheduler stops) and deletes what it
   * kept (its data folder, or its rows in team mode).
   */
  discard(companyId: string): Promise<void>;
  /** Flushes and closes every open runtime (daemon shutdown). */
  close(): Promise<void>;
  /** Answers pending long-polls now, so the server can finish in-flight requests (called first at shutdown). */
  drain?(): void;
  /**
   * After `svc dev clock` moved time ahead: every open runtime walks its schedules (each schedule's
   * catch-up policy decides what the skipped time fires) and its due retries now, not at the next
   * minute. Resolves to the number of schedule ticks fired.
   */
  catchUp?(): Promise<number>;
}

/** Each Company's runtime keeps its files here, under the daemon's data folder. */
export const companyDataDir = (dataDir: string, companyId: string) => join(dataDir, 'companies', companyId);

/** Marks a request as one Company's: who calls, and the runtime the Company's routes will serve it with. */
export function enterCompany(ctx: Context, tenant: TenantCaller, runtime: CompanyRuntime): void {
  ctx.state.tenant = tenant;
  ctx.state.companyRuntime = runtime;
}

export function tenantOf(ctx: Context): TenantCaller {
  const tenant = ctx.state.tenant as TenantCaller | undefined;
  if (!tenant) throw new Error(`runtime route ${ctx.path} reached without a tenant selection`);
  return tenant;
}

export function runtimeOf(ctx: Context): CompanyRuntime {
  const runtime = ctx.state.companyRuntime as CompanyRuntime | undefined;
  if (!runtime) throw new Error(`runtime route ${ctx.path} reached without an opened Company`);
  return runtime;
}
