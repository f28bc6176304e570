/**
 * The page a magic link opens. A GET never logs anyone in: mail scanners and link previewers
 * fetch every URL in a message, and would otherwise burn the link (or log themselves in).
 * The page shows a button; only the click POSTs the token to /api/auth/login/magic/consume.
 * The page shows nothing secret: the session token stays in this browser tab's sessionStorage.
 */
export function renderMagicPage(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="referrer" content="no-referrer"><title>Log in to svc</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1.25rem}</style>
</head><body>
<h1>Log in to svc</h1>
<p id="status">Press the button to finish logging in. The link works once, for 10 minutes from when it was sent.</p>
<p><button id="go" type="button">Log in</button></p>
<p><small>Logging in from the <code>svc</code> command line? Type the 6-digit code from the same e-mail there instead,
or paste this page's address at the prompt. Using the code or the link ends both.</small></p>
<script nonce="${nonce}">
const token = new URLSearchParams(location.search).get('token') || '';
const status = document.getElementById('status');
document.getElementById('go').addEventListener('click', async (event) => {
  event.target.disabled = true;
  const res = await fetch('/api/auth/login/magic/consume', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });
  const body = await res.json().catch(() => ({}));
  if (res.ok && body.token) { sessionStorage.setItem('svc_token', body.token); status.textContent = 'You are logged in. You can close this tab.'; }
  else if (res.ok && body.totp_required) { status.textContent = 'Your account has two-factor authentication: log in from the svc CLI with the 6-digit code from the e-mail and then your authenticator code.'; }
  else { status.textContent = (body.error || 'This link did not work.') + ' Ask for a new code with: svc login --email-code'; }
  history.replaceState(null, '', location.pathname);
});
</script>
</body></html>
`;
}
