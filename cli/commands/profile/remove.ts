import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import { currentCompanyKey } from '../../company.js';
import type { CliContext } from '../../context.js';
import { bindingKey, profileSecretNames } from '../../credentials/profile-scope.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { DEFAULT_PROFILE, deleteProfile, readProfiles } from '../../profiles.js';

/**
 * `svc profile remove <name>`: forgets the profile and the login, account key and current
 * Company's secret key stored under it (it does not end the session on the server: `svc logout` does).
 */
export async function runProfileRemove(
  opts: { name: string },
  ctx: CliContext,
  makeCtx: ContextFactory,
): Promise<void> {
  if (opts.name === DEFAULT_PROFILE)
    throw new UsageError("the default profile cannot be removed (log out of it with 'svc logout')");
  if (!readProfiles(ctx.config())[opts.name])
    throw new NotFoundError(`no profile '${opts.name}'`, "list them with 'svc profile list'");
  const target = makeCtx({ profile: opts.name });
  const scope = target.scope;
  const company = target.config().get<{ id: string }>(currentCompanyKey(scope));
  let forgotten = 0;
  for (const name of profileSecretNames(scope, company?.id)) if (await target.credentials().delete(name)) forgotten++;
  target.config().delete(currentCompanyKey(scope));
  target.config().delete(bindingKey(scope));
  deleteProfile(ctx.config(), opts.name);
  if (ctx.json) return ctx.printJson({ ok: true, name: opts.name, credentials_forgotten: forgotten });
  ctx.out(`Removed profile ${opts.name}${forgotten ? ` and the ${forgotten} credential(s) stored for it` : ''}.`);
}

export function profileRemoveCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('remove')
    .description('remove a profile and the credentials stored for it')
    .argument('<name>', 'a profile name');
  return action(cmd, makeCtx, (ctx, _flags, name: string) => runProfileRemove({ name }, ctx, makeCtx));
}
