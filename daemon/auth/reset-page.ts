/**
 * The page a password-reset link opens (`/auth/reset?token=…`). Like the magic-link page, a GET
 * changes nothing (mail scanners fetch every link): the new password is typed here and only the
 * submit POSTs it with the token to /api/auth/reset-password. The token never leaves this tab.
 */
export function renderResetPage(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="referrer" content="no-referrer"><title>Reset your svc password</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem}input,button{font:inherit;padding:.4rem .6rem;margin:.25rem 0;width:100%;box-sizing:border-box}button{width:auto;padding:.5rem 1.25rem}</style>
</head><body>
<h1>Reset your svc password</h1>
<p id="status">Choose a new password: 12 to 128 characters (a passphrase of a few words is good). Resetting ends every session.</p>
<form id="form">
<label>New password <input id="p1" type="password" autocomplete="new-password" minlength="12" maxlength="128" required></label>
<label>Again <input id="p2" type="password" autocomplete="new-password" minlength="12" maxlength="128" required></label>
<p><button type="submit">Set the new password</button></p>
</form>
<p><small>From the command line instead: <code>svc password reset --token &lt;the token in the e-mail&gt;</code>.</small></p>
<script nonce="${nonce}">
const token = new URLSearchParams(location.search).get('token') || '';
history.replaceState(null, '', location.pathname);
const status = document.getElementById('status');
document.getElementById('form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const password = document.getElementById('p1').value;
  if (password !== document.getElementById('p2').value) { status.textContent = 'The two passwords differ.'; return; }
  event.submitter.disabled = true;
  const res = await fetch('/api/auth/reset-password', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token, password }) });
  const body = await res.json().catch(() => ({}));
  if (res.ok) { status.textContent = 'Your password is changed and every session has ended. Log in again with: svc login'; document.getElementById('form').remove(); }
  else { status.textContent = (body.error || 'This link did not work.'); event.submitter.disabled = false; }
});
</script>
</body></html>
`;
}
