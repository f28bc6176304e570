import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { runtimeApi, withCompany } from '../events/shared.js';

export interface ChannelView {
  name: string;
  created_at: string;
  rotated_at: string | null;
  previous_secret_valid_until: string | null;
}

/** `svc channels create <name>`: a webhook channel; its secret is printed once, never again. */
export async function runChannelsCreate(opts: { company?: string; name: string }, ctx: CliContext): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const res = await api.post<{ channel: ChannelView; secret: string; endpoint: string }>('/api/channels', {
    name: opts.name,
  });
  if (ctx.json) return ctx.printJson(res);
  ctx.out(`created channel ${res.channel.name}  (deliveries: POST ${res.endpoint})`);
  ctx.out(`secret: ${res.secret}`);
  ctx.err('store the secret now: it is shown only once (svc channels rotate makes a new one)');
}

export function channelsCreateCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(
    new Command('create')
      .description('create an inbound webhook channel and print its signing secret once')
      .argument('<name>', 'channel name: a-z 0-9 _ -'),
  );
  return action(cmd, makeCtx, (ctx, flags, name: string) => runChannelsCreate({ company: flags.company, name }, ctx));
}
