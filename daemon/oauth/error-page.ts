import type { KoaContextWithOIDC } from 'oidc-provider';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The page a browser sees when an authorization request cannot be answered at the client's
 * redirect URI (an unknown client, a redirect URI it did not register): the error is shown here
 * and the browser goes nowhere. Self-contained (no font, script or image from anywhere), not
 * cached, not framed, and every word from the request is escaped.
 */
export async function renderOAuthErrorPage(
  ctx: KoaContextWithOIDC,
  out: { error: string; error_description?: string },
): Promise<void> {
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = 'text/html; charset=utf-8';
  const description = out.error_description ? `<p>${escapeHtml(out.error_description)}</p>` : '';
  ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc: this sign-in request cannot continue</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;color:#222}code{background:#f2f2f2;padding:0 .3em}</style>
</head><body>
<h1>This sign-in request cannot continue</h1>
<p>The app that sent you here asked for something svc will not do, so you were not sent back to it.</p>
<p>Error: <code>${escapeHtml(out.error)}</code></p>
${description}
<p>You can close this tab. If the app keeps sending you here, tell whoever runs it.</p>
</body></html>
`;
}
