import type { Router } from '@koa/router';

/**
 * What a Company runtime's route files may call to register routes: a path and its handlers per
 * method, nothing else. Runtimes register on a recorder and share one compiled router
 * (company/routes/shared-router.ts), which supports exactly these.
 */
export type RouteRegistrar = Pick<Router, 'get' | 'post' | 'put' | 'patch' | 'delete'>;
