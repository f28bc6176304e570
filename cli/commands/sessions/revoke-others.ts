import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { requireToken } from '../../session.js';

/** `svc sessions revoke-others`: ends every session of the account but this one. */
export async function runSessionsRevokeOthers(_opts: Record<string, never>, ctx: CliContext): Promise<void> {
  const token = await requireToken(ctx);
  const res = await ctx.api().post<{ ok: boolean; revoked: number }>('/api/auth/sessions/revoke-others', {}, { token });
  if (ctx.json) return ctx.printJson(res);
  ctx.out(`Revoked ${res.revoked} other session${res.revoked === 1 ? '' : 's'}; this one stays.`);
}

export function sessionsRevokeOthersCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('revoke-others').description('end every session but this one');
  return action(cmd, makeCtx, (ctx) => runSessionsRevokeOthers({}, ctx));
}
