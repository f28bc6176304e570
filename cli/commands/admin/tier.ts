import { Command } from '../../command-spec.js';
import { TIERS, type Tier } from '../../../shared/wire.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { operatorApi } from '../../operator.js';

/** `svc admin tier <email> <tier>`: what billing would do on the platform. */
export async function runTier(opts: { email: string; tier: string; data?: string }, ctx: CliContext): Promise<void> {
  if (!TIERS.includes(opts.tier as Tier))
    throw new UsageError(`unknown tier '${opts.tier}': use one of ${TIERS.join(', ')}`);
  const res = await operatorApi(ctx, opts.data).post<{ user: { email: string; tier: string } }>('/api/dev/tier', {
    email: opts.email,
    tier: opts.tier,
  });
  if (ctx.json) return ctx.printJson(res);
  ctx.out(`${res.user.email} is now on the ${res.user.tier} tier`);
}

export function tierCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('tier')
    .description(`set a user's tier (${TIERS.join(', ')})`)
    .argument('<email>')
    .argument('<tier>')
    .option('--data <dir>', 'data folder of the local daemon');
  return action(cmd, makeCtx, (ctx, flags, email: string, tier: string) =>
    runTier({ email, tier, data: flags.data }, ctx),
  );
}
