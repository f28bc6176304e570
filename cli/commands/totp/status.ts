import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';

/** `svc totp status`: whether two-factor is on, and how many recovery codes are left. */
export async function runTotpStatus(ctx: CliContext): Promise<void> {
  const state = await ctx
    .api()
    .get<{ enabled: boolean; enabled_at: string | null; recovery_codes_left: number }>('/api/auth/totp');
  if (ctx.json) return ctx.printJson(state);
  ctx.out(
    state.enabled
      ? `Two-factor authentication is on (since ${state.enabled_at}); ${state.recovery_codes_left} recovery codes left.`
      : 'Two-factor authentication is off.',
  );
}

export function totpStatusCommand(makeCtx: ContextFactory): Command {
  return action(new Command('status').description('show whether two-factor authentication is on'), makeCtx, (ctx) =>
    runTotpStatus(ctx),
  );
}
