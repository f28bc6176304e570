import type { Context } from 'koa';
import { runtimeOf, tenantOf } from '../seam.js';
import type { OpenedRuntime } from '../opened.js';

/**
 * The opened runtime of the Company this request is for, as the tenant middleware left it. Checked
 * here as defence in depth: the middleware chose the Company for this caller, so a runtime of
 * another Company, or a webhook delivery anywhere but its own route, is a wiring bug that must
 * never read or write a Company's data.
 */
export function openedOf(ctx: Context): OpenedRuntime {
  return checked(ctx, false);
}

/** The same, for the inbound webhook route: the one route an unauthenticated delivery reaches. */
export function deliveryTargetOf(ctx: Context): OpenedRuntime {
  return checked(ctx, true);
}

function checked(ctx: Context, delivery: boolean): OpenedRuntime {
  const tenant = tenantOf(ctx);
  const runtime = runtimeOf(ctx) as Partial<OpenedRuntime>;
  if (!runtime.core || !runtime.channels)
    throw new Error(`runtime route ${ctx.path} reached a runtime that serves no routes`);
  if (runtime.core.company.id !== tenant.company.id)
    throw new Error(`runtime of ${runtime.core.company.id} got a request for ${tenant.company.id}`);
  if ((tenant.via === 'webhook') !== delivery) throw new Error(`${tenant.via} caller reached ${ctx.path}`);
  return runtime as OpenedRuntime;
}
