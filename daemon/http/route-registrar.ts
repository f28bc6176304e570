import type { Router } from '@koa/router';

/** What a route file needs of a router to register its routes: a path and its handlers per method. */
export type RouteRegistrar = Pick<Router, 'get' | 'post' | 'put' | 'patch' | 'delete'>;
