import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { runtimeApi, withCompany } from '../events/shared.js';
import type { ChannelView } from './create.js';

/** `svc channels rotate <name>`: a new secret; the old one keeps working for the grace period (default 24 h). */
export async function runChannelsRotate(
  opts: { company?: string; name: string; graceMs?: number },
  ctx: CliContext,
): Promise<void> {
  const api = await runtimeApi(ctx, opts.company);
  const res = await api.post<{ channel: ChannelView; secret: string }>(
    `/api/channels/${encodeURIComponent(opts.name)}/rotate`,
    opts.graceMs === undefined ? {} : { grace_ms: opts.graceMs },
  );
  if (ctx.json) return ctx.printJson(res);
  ctx.out(`rotated ${res.channel.name}`);
  ctx.out(`secret: ${res.secret}`);
  ctx.err(
    res.channel.previous_secret_valid_until
      ? `the previous secret works until ${res.channel.previous_secret_valid_until}`
      : 'the previous secret no longer works',
  );
}

export function channelsRotateCommand(makeCtx: ContextFactory): Command {
  const cmd = withCompany(new Command('rotate').description("replace a channel's secret").argument('<name>')).option(
    '--grace <seconds>',
    'how long the previous secret stays valid (default 86400; 0 revokes it now)',
  );
  return action(cmd, makeCtx, (ctx, flags, name: string) => {
    const grace = flags.grace === undefined ? undefined : Number(flags.grace);
    if (grace !== undefined && (!Number.isInteger(grace) || grace < 0 || grace > 7 * 86400))
      throw new UsageError('--grace must be whole seconds from 0 to 604800');
    return runChannelsRotate(
      { company: flags.company, name, graceMs: grace === undefined ? undefined : grace * 1000 },
      ctx,
    );
  });
}
