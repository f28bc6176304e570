import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';

interface Passkey {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** `svc passkeys list`: the passkeys on the account (they are added from a browser). */
export async function runPasskeysList(ctx: CliContext): Promise<void> {
  const { passkeys } = await ctx.api().get<{ passkeys: Passkey[] }>('/api/auth/passkeys');
  if (ctx.json) return ctx.printList(passkeys);
  if (passkeys.length === 0) return ctx.err('no passkeys on this account');
  for (const p of passkeys)
    ctx.out(`${p.id}  ${p.name}  added ${p.created_at}  last used ${p.last_used_at ?? 'never'}`);
}

export function passkeysListCommand(makeCtx: ContextFactory): Command {
  return action(new Command('list').description('list the passkeys on your account'), makeCtx, (ctx) =>
    runPasskeysList(ctx),
  );
}
