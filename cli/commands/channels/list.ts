import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { runtimeApi, withCompany } from '../events/shared.js';
import type { ChannelView } from './create.js';

/** `svc channels list`: the Company's webhook channels (never their secrets). */
export async function runChannelsList(opts: { company?: string }, ctx: CliContext): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const { channels } = await api.get<{ channels: ChannelView[] }>('/api/channels');
  if (ctx.json) return ctx.printList(channels);
  if (channels.length === 0) return ctx.err('no channels');
  for (const c of channels) {
    const grace = c.previous_secret_valid_until ? `  previous secret valid until ${c.previous_secret_valid_until}` : '';
    ctx.out(`${c.name}  created ${c.created_at}${c.rotated_at ? `  rotated ${c.rotated_at}` : ''}${grace}`);
  }
}

export function channelsListCommand(makeCtx: ContextFactory): Command {
  return action(withCompany(new Command('list').description('list the webhook channels')), makeCtx, (ctx, flags) =>
    runChannelsList({ company: flags.company }, ctx),
  );
}
