import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { ApiRequestError, NotFoundError } from '../../errors.js';

/** `svc apps revoke <id>`: ends the grant; the app's tokens are refused from its next request on. */
export async function runAppsRevoke(id: string, ctx: CliContext): Promise<void> {
  try {
    await ctx.api().delete(`/api/oauth/grants/${encodeURIComponent(id)}`);
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 404)
      throw new NotFoundError(`you have no connected app ${id}`, "list them with 'svc apps list'");
    throw err;
  }
  if (ctx.json) ctx.printJson({ ok: true, id, revoked: true });
  else ctx.out(`Revoked connected app ${id}; its tokens stop working now (it must sign in again).`);
}

export function appsRevokeCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('revoke')
    .description('disconnect an app: its access and refresh tokens stop working now')
    .argument('<id>', 'the grant id (from svc apps list)');
  return action(cmd, makeCtx, (ctx, _flags, id: string) => runAppsRevoke(id, ctx));
}
