import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { requireToken } from '../../session.js';
import { meResponse } from '../../../shared/schemas/me.js';

export type { MeResponse as Me } from '../../../shared/schemas/me.js';

/** `svc whoami`: who the stored login (or SVC_TOKEN) is, as the daemon sees it. */
export async function runWhoami(_opts: Record<string, never>, ctx: CliContext): Promise<void> {
  const token = await requireToken(ctx);
  const me = await ctx.api().get('/api/me', { token, schema: meResponse });
  if (ctx.json) return ctx.printJson(me);
  ctx.out(`${me.email ?? '(no e-mail)'}${me.display_name ? ` (${me.display_name})` : ''}`);
  ctx.out(`  id:       ${me.id}`);
  ctx.out(`  tier:     ${me.tier}`);
  ctx.out(`  verified: ${me.email_verified ? 'yes' : "no (run 'svc verify')"}`);
  if (me.pending_email) ctx.out(`  pending e-mail change to ${me.pending_email}`);
  ctx.out(`  session:  ${me.session.id}, until ${me.session.expires_at}`);
  ctx.out(`  daemon:   ${ctx.url()}`);
}

export function whoamiCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('whoami').description('show the account you are logged in as');
  return action(cmd, makeCtx, (ctx) => runWhoami({}, ctx));
}
