import { Router } from '@koa/router';

/** `GET /healthz` → `{ ok: true }`, no authentication (CONTRACT §2). */
export function healthRoutes(): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ok: true };
  });
  return router;
}
