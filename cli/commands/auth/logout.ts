import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { ApiRequestError } from '../../errors.js';
import { currentToken, forgetLogin } from '../../session.js';

/** `svc logout`: ends the session on the daemon, then forgets it here. Logging out twice is fine. */
export async function runLogout(_opts: Record<string, never>, ctx: CliContext): Promise<void> {
  const token = await currentToken(ctx);
  let revoked = false;
  if (token) {
    try {
      await ctx.api().post('/api/auth/logout', {}, { token });
      revoked = true;
    } catch (err) {
      // An ended or invalid session is what logout wants anyway; anything else (daemon down) is reported.
      if (!(err instanceof ApiRequestError && err.status === 401)) throw err;
    }
  }
  const forgotten = await forgetLogin(ctx);
  if (ctx.json) return ctx.printJson({ ok: true, revoked, forgotten });
  if (!token) ctx.err(`not logged in to ${ctx.url()}`);
  else ctx.out(`Logged out of ${ctx.url()}.`);
  if (ctx.env.SVC_TOKEN) ctx.err('note: SVC_TOKEN is set in your environment; that token is now revoked, unset it');
}

export function logoutCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('logout').description('end this login on the server and forget it locally');
  return action(cmd, makeCtx, (ctx) => runLogout({}, ctx));
}
