import { Router } from '@koa/router';
import type { Context } from 'koa';
import { ErrorCode } from '../../shared/errors.js';
import { ApiError, notFound } from '../http/api-error.js';
import { loadConsoleAssets, type ConsoleAsset } from './assets.js';
import { setConsoleHeaders } from './security-headers.js';

/**
 * The web console (CONTRACT §2): `GET /` serves its page, `/console/<file>` its bundled
 * script and styles. It is a static client of the public REST API under /api/: the token it gets
 * at login stays in the page's memory. `/auth/magic` (the e-mailed magic link) opens the same
 * page, which shows the "Log in" button and keeps the session it gets.
 */
export function consoleRoutes(load: () => Map<string, ConsoleAsset> | null = loadConsoleAssets): Router {
  const router = new Router();
  let assets: Map<string, ConsoleAsset> | null | undefined;
  const files = () => (assets ??= load());

  const page = (ctx: Context) => {
    const index = files()?.get('index.html');
    if (!index) throw new ApiError(404, ErrorCode.consoleNotBuilt, 'The web console is not built: run npm run build.');
    setConsoleHeaders(ctx);
    // The page is tiny and names the hashed bundle: never cached, so a new build shows at once.
    ctx.set('Cache-Control', 'no-store');
    send(ctx, index);
  };
  router.get('/', page);
  router.get('/auth/magic', page);

  router.get('/console/:file', (ctx) => {
    const asset = ctx.params.file === 'index.html' ? undefined : files()?.get(ctx.params.file!);
    if (!asset) throw notFound(`No console file ${ctx.params.file}.`);
    setConsoleHeaders(ctx);
    // File names carry a content hash (app-<hash>.js), so a name never changes meaning.
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    send(ctx, asset);
  });
  return router;
}

function send(ctx: Context, asset: ConsoleAsset): void {
  ctx.type = asset.type;
  ctx.vary('Accept-Encoding');
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = asset.gzip;
  } else ctx.body = asset.body;
}
