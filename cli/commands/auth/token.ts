import { Command } from '../../command-spec.js';
import { action, type ContextFactory } from '../../command.js';
import type { CliContext } from '../../context.js';
import { findCredentialSources } from '../../credential-sources.js';
import { AuthRequiredError } from '../../errors.js';

/** `svc auth token`: prints the profile's session token (SVC_TOKEN when set), for `curl -H "Authorization: Bearer $(svc auth token)"`. */
export async function runAuthToken(_opts: object, ctx: CliContext): Promise<void> {
  const { token } = await findCredentialSources(ctx);
  if (!token.value) throw new AuthRequiredError(`not logged in (profile ${ctx.profile.name}, ${ctx.url()})`);
  if (ctx.json) return ctx.printJson({ token: token.value, source: token.source, profile: ctx.profile.name });
  ctx.out(token.value);
}

export function authTokenCommand(makeCtx: ContextFactory): Command {
  const cmd = new Command('token').description('print the session token of the profile in use (SVC_TOKEN when set)');
  return action(cmd, makeCtx, (ctx) => runAuthToken({}, ctx));
}
