import { Router } from '@koa/router';

/**
 * `GET /healthz` → `{ ok: true }`, no authentication (CONTRACT §2). A local daemon whose clock
 * `svc dev clock` moved adds `clock_offset_ms`, so the console can show it on every page.
 */
export function healthRoutes(clockOffset: () => number = () => 0): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const offset = clockOffset();
    ctx.body = offset ? { ok: true, clock_offset_ms: offset } : { ok: true };
  });
  return router;
}
