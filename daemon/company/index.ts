/**
 * The Company room's face: what the rest of the daemon may use of one Company's runtime. Rooms
 * outside daemon/company/ import from here only (a dependency-cruiser rule says so), so the
 * runtime's layers can change without the tenant router, the MCP tools or the transfer noticing.
 */
export * from './seam.js';
export type * from './company-services.js';
export type { OpenedServices } from './opened.js';
export { createRuntimeHost, type RuntimeHostOptions } from './host.js';
export { orMissing } from './core.js';
export { presentConfigured } from './bus/emitter-input.js';
export { BUILTIN_TOOL_CATALOG } from './bus/tools.js';
export { MAX_WEBHOOK_BODY } from './channels/accept-delivery.js';
export { refuseDelivery } from './channels/refuse-delivery.js';
export { companyRoutes, deliveryRoute } from './routes/company-routes.js';
