import type { Router } from '@koa/router';

/**
 * A prefixed router's `router.use(guard)` layer (and a `use` with a path of its own) is compiled by
 * @koa/router 15 as a plain regular expression, case-sensitive, while its routes match
 * case-insensitively (their default): `GET /API/DEV/MAIL` reached the operator routes' handler
 * without their guard. The `use` layers of a router that is not case-sensitive are given the `i`
 * flag here, so a guard matches every path its routes answer.
 *
 * Why not a deeper fix: lower-casing the path once in the front door would lower-case route
 * parameters too (key ids, OAuth client ids, webhook channels are case-sensitive), and
 * case-sensitive routers would stop answering spellings that answer today (`/API/ME`). The
 * operator routes no longer rely on this (their router has no prefix, so its `use` matches every
 * path); it stays for any router that has a prefix and a guard. The router version it reads is
 * pinned by tests/daemon/http/route-dispatch.test.ts.
 */
export function matchUseLayersAsRoutes(group: Router): void {
  const router = group as unknown as {
    opts?: { sensitive?: boolean };
    stack: { methods: string[]; regexp?: unknown }[];
  };
  if (router.opts?.sensitive) return;
  for (const layer of router.stack) {
    if (layer.methods.length === 0 && layer.regexp instanceof RegExp && !layer.regexp.flags.includes('i'))
      layer.regexp = new RegExp(layer.regexp.source, `${layer.regexp.flags}i`);
  }
}
