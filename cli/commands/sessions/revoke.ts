import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { forgetLogin, requireToken } from '../../session.js';

/** `svc sessions revoke <id>`: ends one session at once; ending this one also forgets it here. */
export async function runSessionsRevoke(opts: { id: string }, ctx: CliContext): Promise<void> {
  const token = await requireToken(ctx);
  const res = await ctx
    .api()
    .post<{ ok: boolean; revoked: string; current: boolean }>(
      '/api/auth/sessions/revoke',
      { session_id: opts.id },
      { token },
    );
  if (res.current) await forgetLogin(ctx);
  if (ctx.json) return ctx.printJson(res);
  ctx.out(`Revoked session ${opts.id}.${res.current ? ' It was this one: you are logged out.' : ''}`);
}

export function sessionsRevokeCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('revoke')
    .description('end one session now (see svc sessions list)')
    .argument('<id>', 'session id');
  return action(cmd, makeCtx, (ctx, _flags, id: string) => runSessionsRevoke({ id }, ctx));
}
