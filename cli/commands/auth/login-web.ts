import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import type { CliContext } from '../../context.js';
import { ApiRequestError, CancelledError, FailedError } from '../../errors.js';
import { saveLogin } from '../../session.js';
import { readTokenClaims } from '../../token-claims.js';

interface PairingStart {
  device_code: string;
  user_code: string;
  verification_url: string;
  verification_url_complete: string;
  expires_in: number;
  interval: number;
}
type PollAnswer = { status: 'pending' } | { status: 'approved'; token: string; session_id: string };

export interface WebLoginOptions {
  /** Tests and scripts: never try to open a browser (the URL is printed either way). */
  noBrowser?: boolean;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * `svc login --web`: device pairing (docs/console.md). The daemon gives a short code and the
 * console's pairing page; the person logs in there with any factor, checks the code, and
 * approves; this command polls and receives its OWN new session (never the browser's).
 */
export async function runWebLogin(ctx: CliContext, opts: WebLoginOptions = {}): Promise<void> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const api = ctx.api();
  const start = await api.post<PairingStart>(
    '/api/auth/pairing/start',
    { client: `svc CLI on ${hostname().slice(0, 48)}` },
    { token: null },
  );
  // Progress goes to stderr, so `--json` leaves stdout to the one JSON answer.
  ctx.err(`Your pairing code: ${start.user_code}`);
  const opened = !opts.noBrowser && ctx.interactive && (await openBrowser(start.verification_url_complete, ctx.env));
  ctx.err(
    opened
      ? `Opened ${start.verification_url_complete} in your browser.`
      : `Open this page in a browser: ${start.verification_url_complete}`,
  );
  ctx.err('Log in there, check that it shows the same code, and approve. Waiting…');

  // Counted on this machine's clock from the lifetime the daemon gave: the two clocks may differ.
  const deadline = ctx.now() + start.expires_in * 1000;
  const waitMs = Math.max(1, start.interval) * 1000;
  for (;;) {
    if (ctx.now() > deadline)
      throw new FailedError('the pairing code expired before it was approved', "run 'svc login --web' again");
    await sleep(waitMs);
    let answer: PollAnswer;
    try {
      answer = await api.post<PollAnswer>(
        '/api/auth/pairing/poll',
        { device_code: start.device_code },
        { token: null },
      );
    } catch (err) {
      if (err instanceof ApiRequestError && err.code === 'pairing_denied')
        throw new CancelledError('the pairing was denied in the browser');
      if (err instanceof ApiRequestError && err.status === 429) continue;
      // Approved, but the approving browser session ended before this poll (logged out, revoked, or
      // the password was changed or reset): the daemon gives no session, and says why.
      if (err instanceof ApiRequestError && err.code === 'pairing_approval_ended')
        throw new FailedError(
          'the browser session that approved this pairing has ended (logged out, revoked, or the password changed), so no login was saved',
          "log in again in the browser, then run 'svc login --web' again",
        );
      if (err instanceof ApiRequestError && err.code === 'pairing_not_found')
        throw new FailedError('the pairing expired or the daemon restarted', "run 'svc login --web' again");
      throw err;
    }
    if (answer.status !== 'approved') continue;
    await saveLogin(ctx, answer.token);
    const who = readTokenClaims(answer.token).email ?? 'your account';
    if (ctx.json)
      ctx.printJson({ ok: true, logged_in_as: who, url: ctx.url(), session_id: answer.session_id, method: 'pairing' });
    else ctx.out(`Logged in to ${ctx.url()} as ${who}.`);
    return;
  }
}

/** $BROWSER, else the desktop's opener; false when none could start (a server, a container). */
function openBrowser(url: string, env: Record<string, string | undefined>): Promise<boolean> {
  const [cmd, ...args] = env.BROWSER
    ? [env.BROWSER, url]
    : process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : env.DISPLAY || env.WAYLAND_DISPLAY
          ? ['xdg-open', url]
          : [];
  if (!cmd) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => (child.unref(), resolve(true)));
  });
}
