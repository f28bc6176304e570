import type { RouteRegistrar } from '../../http/route-registrar.js';
import { channelRoutes, deliveryRoute } from './channel-routes.js';
import { detectorRoutes } from './detector-routes.js';
import { eventRoutes } from './event-routes.js';
import { runtimeRoutes } from './service-routes.js';

/**
 * Every route a Company serves to its callers, registered once for the whole daemon on the tenant
 * router (companies/tenant.ts). Each handler reads the Company the request is for from the
 * request (opened-of.ts), so one set of routes serves every Company.
 */
export function companyRoutes(router: RouteRegistrar): void {
  runtimeRoutes(router);
  eventRoutes(router);
  detectorRoutes(router);
  channelRoutes(router);
}

/** The inbound webhook delivery: the one Company route reached without a token (companies/inbound-webhook-route.ts). */
export { deliveryRoute };
