import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { NotFoundError } from '../../errors.js';
import { readProfiles, setCurrentProfile } from '../../profiles.js';

/** `svc profile use <name>`: the profile every command uses from now on (--profile and SVC_PROFILE still win). */
export async function runProfileUse(opts: { name: string }, ctx: CliContext): Promise<void> {
  if (!readProfiles(ctx.config())[opts.name])
    throw new NotFoundError(`no profile '${opts.name}'`, "list them with 'svc profile list'");
  setCurrentProfile(ctx.config(), opts.name);
  if (ctx.json) return ctx.printJson({ ok: true, current: opts.name });
  ctx.out(`Now using profile ${opts.name}.`);
  if (ctx.env.SVC_PROFILE && ctx.env.SVC_PROFILE !== opts.name)
    ctx.err(`note: SVC_PROFILE=${ctx.env.SVC_PROFILE} is set and wins over this choice`);
}

export function profileUseCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('use').description('choose the current profile').argument('<name>', 'a profile name');
  return action(cmd, makeCtx, (ctx, _flags, name: string) => runProfileUse({ name }, ctx));
}
