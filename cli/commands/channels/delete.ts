import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { runtimeApi, withCompany } from '../events/shared.js';

/** `svc channels delete <name>`: deliveries to it are refused from then on. */
export async function runChannelsDelete(opts: { company?: string; name: string }, ctx: CliContext): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const res = await api.delete<{ ok: true; name: string; deleted: true }>(
    `/api/channels/${encodeURIComponent(opts.name)}`,
  );
  if (ctx.json) return ctx.printJson(res);
  ctx.out(`deleted channel ${res.name}`);
}

export function channelsDeleteCommand(makeCtx: ContextFactory): Command {
  return action(
    withCompany(new Command('delete').description('delete a webhook channel').argument('<name>')),
    makeCtx,
    (ctx, flags, name: string) => runChannelsDelete({ company: flags.company, name }, ctx),
  );
}
